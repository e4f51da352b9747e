"""The graph stage: after a document is stored, enrich its tree and extract its graph.

A `graph` job per document, queued in the transaction that stores it when its knowledge base
has enrichment or a graph (a knowledge base with neither pays one attribute check per
document), and for every ready document when those settings change. The stage reads the
document's chunks and tree, runs the extractor and the enricher off the event loop, embeds new
entity names and facts with the knowledge base's model, and writes everything in one
transaction: mentions carry the run's id, so the document's older contributions go in the same
commit and no reader sees a half-written graph.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import undefer

from app.chunks.embedding import EmbedderFactory, embed_texts
from app.config import Settings
from app.db.engine import Database
from app.documents import enrichment as node_enrichment
from app.documents.repository import load_tree
from app.documents.tree_reads import tree_of
from app.graph import repository
from app.graph.enrich import enrich_tree
from app.graph.extraction import (
    ChunkExtraction,
    ChunkInput,
    ExtractionResult,
    Extractor,
    entity_key,
)
from app.graph.llm import ChatClientFactory, LlmExtractor, no_chat_client
from app.graph.local import LocalExtractor
from app.graph.settings import EnrichmentSettings, enrichment_of, graph_of, wants_stage
from app.ingestion.stored import stored_root
from app.ingestion.tree import DocumentNode, NodeEnrichment, iter_nodes
from app.jobs import repository as jobs_repository
from app.models import Document, Job, KnowledgeBase

logger = logging.getLogger(__name__)

JOB_KIND = "graph"
# Types an extractor invents for an endpoint it did not list as an entity.
ENDPOINT_TYPE = "CONCEPT"

QUEUE_SQL = text(
    "INSERT INTO jobs (id, project_id, knowledge_base_id, document_id, kind, status, payload, "
    "attempts, max_attempts, run_after, created_at, updated_at) "
    "SELECT gen_random_uuid(), d.project_id, d.knowledge_base_id, d.id, "
    "CAST(:kind AS varchar), 'queued', '{}'::jsonb, 0, :max_attempts, now(), now(), now() "
    "FROM documents d "
    "WHERE d.knowledge_base_id = :kb AND d.status = 'ready' "
    "AND (CAST(:ids AS uuid[]) IS NULL OR d.id = ANY(CAST(:ids AS uuid[]))) "
    "AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.document_id = d.id "
    "AND j.kind = CAST(:kind AS varchar) AND j.status = 'queued') RETURNING id"
)


async def queue(
    session: AsyncSession,
    kb: KnowledgeBase,
    document_ids: Sequence[uuid.UUID] | None = None,
    *,
    max_attempts: int = 5,
) -> int:
    """A graph job for these ready documents (all of the knowledge base's with None), unless
    one is already queued for the document; how many were queued."""
    if not wants_stage(kb.enrichment, kb.graph):
        return 0
    await session.flush()  # the documents this transaction just made ready
    ids = list(
        await session.scalars(
            QUEUE_SQL,
            {
                "kind": JOB_KIND,
                "max_attempts": max_attempts,
                "kb": kb.id,
                "ids": None if document_ids is None else list(document_ids),
            },
        )
    )
    return len(ids)


async def queue_for_knowledge_base(session: AsyncSession, kb: KnowledgeBase) -> int:
    return await queue(session, kb)


async def drop_graph(session: AsyncSession, kb: KnowledgeBase) -> None:
    await repository.drop_knowledge_base_graph(session, kb.id)


@dataclass
class Merged:
    """One document's extraction, merged by entity key, ready to write."""

    entities: dict[str, tuple[str, str]]  # key -> (name, type)
    entity_mentions: list[tuple[str, uuid.UUID, str, str]]  # key, chunk, surface, description
    relations: dict[tuple[str, str, str, str], None]  # source key, target key, type, fact
    relation_mentions: list[tuple[tuple[str, str, str, str], uuid.UUID]]


def merge(extractions: Sequence[ChunkExtraction]) -> Merged:
    """Entities by key (the first name and type seen win), one mention per entity and chunk;
    a relation's endpoints become entities when the extractor did not list them."""
    merged = Merged({}, [], {}, [])
    seen: set[tuple[str, uuid.UUID]] = set()

    def mention(
        name: str, type_: str, description: str, chunk: ChunkExtraction, key: str = ""
    ) -> str:
        key = key or entity_key(name)
        if not key:
            return ""
        merged.entities.setdefault(key, (name, type_))
        if (key, chunk.chunk_id) not in seen:
            seen.add((key, chunk.chunk_id))
            merged.entity_mentions.append((key, chunk.chunk_id, name, description))
        return key

    for chunk in extractions:
        for entity in chunk.entities:
            mention(entity.name, entity.type, entity.description, chunk, entity.key)
        for relation in chunk.relations:
            source = mention(
                relation.source, ENDPOINT_TYPE, relation.fact, chunk, relation.source_key
            )
            target = mention(
                relation.target, ENDPOINT_TYPE, relation.fact, chunk, relation.target_key
            )
            if not source or not target or source == target:
                continue
            key = (source, target, relation.type, relation.fact)
            merged.relations.setdefault(key, None)
            merged.relation_mentions.append((key, chunk.chunk_id))
    merged.relation_mentions = list(dict.fromkeys(merged.relation_mentions))
    return merged


def merged_enrichment(
    root: DocumentNode, computed: dict[str, NodeEnrichment], settings: EnrichmentSettings
) -> dict[str, NodeEnrichment | None]:
    """Per node, its enrichment with the fields the settings produce replaced by the new ones
    and the others (written through the API) kept."""
    produced = {
        name
        for name, wanted in (
            ("summary", settings.summaries),
            ("keywords", settings.keywords),
            ("entities", settings.entities),
        )
        if wanted
    }
    empty = NodeEnrichment()
    updates: dict[str, NodeEnrichment | None] = {}
    for node in iter_nodes(root):
        new = computed.get(node.node_id, empty)
        old = node.enrichment or empty
        fields = {name: getattr(new if name in produced else old, name) for name in produced}
        if not produced:
            continue
        merged = old.model_copy(update=fields)
        if merged != old:
            updates[node.node_id] = None if merged == empty else merged
    return updates


@dataclass
class GraphStage:
    """Runs `graph` jobs; one document per job."""

    database: Database
    settings: Settings
    embedders: EmbedderFactory
    chat_clients: ChatClientFactory = no_chat_client

    def extractor(self, kb: KnowledgeBase) -> Extractor:
        if graph_of(kb.graph).extractor == "llm":
            client = self.chat_clients()
            if client is None:
                raise RuntimeError(
                    "the knowledge base's graph extractor is 'llm' but no chat model is "
                    "configured (ARBOR_LLM_*)"
                )
            return LlmExtractor(client)
        return LocalExtractor()

    async def handle(self, job: Job) -> None:
        try:
            await self._run(job)
        except Exception as exc:
            logger.exception("graph job %s failed (attempt %d)", job.id, job.attempts)
            async with self.database.transaction() as session:
                await jobs_repository.retry_or_fail(
                    session,
                    job,
                    reason=f"{type(exc).__name__}: {exc}"[:500],
                    delay_s=self.settings.job_retry_base_s * 2**job.attempts,
                )

    async def _run(self, job: Job) -> None:
        async with self.database.transaction() as session:
            kb = await session.get(KnowledgeBase, job.knowledge_base_id)
            document = (
                await session.get(Document, job.document_id, options=[undefer(Document.tree)])
                if job.document_id
                else None
            )
            if kb is None or document is None or document.status != "ready":
                await jobs_repository.finish(session, job.id, status="cancelled")
                return
            chunks = await repository.chunks_of(session, document)
            tree = document.tree
        enrichment = enrichment_of(kb.enrichment)
        graph = graph_of(kb.graph)
        root = stored_root(tree["root"]) if tree else None
        computed: dict[str, NodeEnrichment] = {}
        if enrichment.any and root is not None:
            computed = await asyncio.to_thread(enrich_tree, root, enrichment)
        result = ExtractionResult([])
        if graph.enabled and chunks:
            result = await self.extractor(kb).extract([ChunkInput(i, t) for i, t in chunks])
        merged = merge(result.chunks)
        names, facts = await self._vectors(kb, merged)
        extraction = job.id
        async with self.database.transaction() as session:
            document = await session.get(Document, document.id, with_for_update=True)
            if document is None:
                await jobs_repository.finish(session, job.id, status="cancelled")
                return
            if graph.enabled:
                await self._write_graph(session, kb, document, extraction, merged, names, facts)
            if root is not None and enrichment.any:
                updates = merged_enrichment(root, computed, enrichment)
                await load_tree(session, document)
                known = {node.node_id for node in iter_nodes(tree_of(document))}
                updates = {k: v for k, v in updates.items() if k in known}
                if updates:
                    await node_enrichment.write(session, document, updates)
            document.progress = {
                **(document.progress or {}),
                "graph": {
                    "entities": len(merged.entities),
                    "relations": len(merged.relations),
                    "enriched_nodes": len(computed),
                    "warnings": result.warnings[:20],
                    "prompt_tokens": result.usage.prompt_tokens,
                    "completion_tokens": result.usage.completion_tokens,
                },
            }
            await jobs_repository.finish(session, job.id, status="succeeded")

    async def _vectors(
        self, kb: KnowledgeBase, merged: Merged
    ) -> tuple[dict[str, list[float] | None], dict[str, list[float] | None]]:
        """Vectors of the entity names and facts not embedded yet; none without an embedder
        (quick mode and the vector fallback then find nothing, and say so)."""
        embedder = self.embedders(kb) if merged.entities else None
        if embedder is None:
            return {}, {}
        async with self.database.transaction() as session:
            have = set(
                await session.scalars(
                    text(
                        "SELECT key FROM graph_entities WHERE knowledge_base_id = :kb "
                        "AND key = ANY(:keys) AND name_embedding IS NOT NULL"
                    ),
                    {"kb": kb.id, "keys": list(merged.entities)},
                )
            )
            names = [merged.entities[k][0] for k in merged.entities if k not in have]
            facts = sorted({key[3] for key in merged.relations})
            try:
                name_vectors = await embed_texts(session, kb, names, embedder)
                fact_vectors = await embed_texts(session, kb, facts, embedder)
            except Exception as exc:
                logger.warning("graph: embedding names and facts of %s failed: %s", kb.id, exc)
                return {}, {}
        return dict(zip(names, name_vectors, strict=True)), dict(
            zip(facts, fact_vectors, strict=True)
        )

    @staticmethod
    async def _write_graph(
        session: AsyncSession,
        kb: KnowledgeBase,
        document: Document,
        extraction: uuid.UUID,
        merged: Merged,
        names: dict[str, list[float] | None],
        facts: dict[str, list[float] | None],
    ) -> None:
        ids = await repository.upsert_entities(
            session,
            project_id=kb.project_id,
            knowledge_base_id=kb.id,
            entities=[
                (key, name, type_, names.get(name))
                for key, (name, type_) in merged.entities.items()
            ],
        )
        relation_ids = await repository.upsert_relations(
            session,
            project_id=kb.project_id,
            knowledge_base_id=kb.id,
            relations=[
                (ids[s], ids[t], type_, fact, facts.get(fact))
                for s, t, type_, fact in merged.relations
            ],
        )
        await repository.write_mentions(
            session,
            project_id=kb.project_id,
            knowledge_base_id=kb.id,
            document_id=document.id,
            extraction=extraction,
            entity_mentions=[
                (ids[key], chunk, surface, description)
                for key, chunk, surface, description in merged.entity_mentions
            ],
            relation_mentions=[
                (relation_ids[(ids[s], ids[t], type_, fact)], chunk)
                for (s, t, type_, fact), chunk in merged.relation_mentions
            ],
        )


def stage_for(
    database: Database,
    settings: Settings,
    embedders: EmbedderFactory,
    chat_clients: Callable[[], Any] | None = None,
) -> GraphStage:
    return GraphStage(database, settings, embedders, chat_clients or no_chat_client)
