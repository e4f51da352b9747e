"""Hits as the API returns them: a result row's fields and explanation, and the tree context
around a chunk (its section path, enrichment, parent section and neighbours)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from app.ingestion.tree import NodeEnrichment
from app.models import KnowledgeBase
from app.search import hit_context, hybrid, plans
from app.search.hit_context import ChunkKey
from app.search.schemas import (
    ChunkContext,
    ChunkContexts,
    ContextNode,
    HitContext,
    HitExplain,
    Include,
    NeighbourChunk,
    ParentSection,
    SearchHit,
    SearchMode,
    SearchOptions,
)


def build_hit(
    row: plans.Row, options: SearchOptions, mode: SearchMode, context: HitContext | None
) -> SearchHit:
    explain = None
    if Include.EXPLAIN in options.include:
        explain = HitExplain(
            vector_rank=row.vector_rank,
            vector_similarity=row.vector_similarity,
            text_rank=row.text_rank,
            text_score=row.text_score,
            text_match=row.text_match,
            vector_normalized=row.vector_normalized,
            text_normalized=row.text_normalized,
            fused_score=row.extra.get("fused_score", row.score)
            if mode is SearchMode.HYBRID
            else None,
            rerank_score=row.extra.get("rerank_score"),
            mmr_rank=row.extra.get("mmr_rank"),
        )
    return SearchHit(
        chunk_id=row.chunk_id,
        doc_id=row.doc_id,
        knowledge_base_id=row.knowledge_base_id,
        doc_title=row.doc_title,
        text=row.text,
        score=row.score,
        chunk_index=row.chunk_index,
        node_path=row.node_path,
        section_titles=row.section_titles,
        depth=row.depth,
        leaf_node_id=row.leaf_node_id,
        page_start=row.page_start,
        page_end=row.page_end,
        spans=row.spans,
        start_offset=row.start_offset,
        end_offset=row.end_offset,
        metadata=row.metadata,
        highlights=_highlights(row.headline),
        context=context if Include.CONTEXT in options.include else None,
        explain=explain,
        vector=row.embedding if Include.VECTORS in options.include else None,
        source_id=row.source_id,
        source_record_id=row.source_record_id,
    )


def _highlights(headline: str | None) -> list[str]:
    if not headline:
        return []
    fragments = [f.strip() for f in headline.split(hybrid.HEADLINE_SEPARATOR)]
    return [f for f in fragments if "<mark>" in f]


async def chunk_contexts(
    session: AsyncSession,
    kb: KnowledgeBase,
    chunk_ids: Sequence[uuid.UUID],
    *,
    visible: ColumnElement[bool],
) -> ChunkContexts:
    """The reference's HierarchyJoin on its own: `include=context` for chunks the caller names
    (hits it kept, or found elsewhere). Chunks it may not read are as missing as unknown ones."""
    wanted = list(dict.fromkeys(chunk_ids))
    lineage = await hit_context.chunk_lineage(
        session, kb.project_id, kb.id, wanted, visible=visible
    )
    contexts = await contexts_of(session, kb.project_id, lineage)
    return ChunkContexts(
        items=[
            ChunkContext(chunk_id=chunk_id, context=contexts[kb.id, chunk_id])
            for chunk_id in wanted
            if (kb.id, chunk_id) in contexts
        ],
        missing=[chunk_id for chunk_id in wanted if (kb.id, chunk_id) not in contexts],
    )


async def contexts_of(
    session: AsyncSession,
    project_id: uuid.UUID,
    lineage: Sequence[tuple[ChunkKey, list[str]]],
) -> dict[ChunkKey, HitContext]:
    """Each chunk's context from its key (knowledge base, id) and node path, in the project
    that holds the knowledge bases."""
    keys = [key for key, _ in lineage]
    paths = await hit_context.tree_paths(session, project_id, keys)
    around = await hit_context.neighbours(session, project_id, keys)
    contexts: dict[ChunkKey, HitContext] = {}
    for key, node_path in lineage:
        path = paths.get(key, [])
        # The chunk's own node is the last on its path; the rest are its ancestors.
        own = path[-1] if path and path[-1].get("node_id") == node_path[-1] else None
        ancestors = path[:-1] if own is not None else path
        own_enrichment = NodeEnrichment.model_validate((own or {}).get("enrichment") or {})
        ancestor_nodes = [_node(node) for node in ancestors]
        # The nearest section holding the chunk: its own node when that is a section (tiny
        # sections merged into one chunk name their common section as the chunk's node).
        sections = [node for node in path if node.get("kind") == "section"]
        parent_node = sections[-1] if sections else (ancestors[-1] if ancestors else None)
        near = around.get(key, {})
        contexts[key] = HitContext(
            ancestors=ancestor_nodes,
            summary=own_enrichment.summary,
            entities=list(own_enrichment.entities),
            parent_summaries=[n.summary for n in ancestor_nodes if n.summary],
            parent=ParentSection(
                **_node(parent_node).model_dump(),
                text=parent_node["text"],
                truncated=parent_node["truncated"],
            )
            if parent_node is not None
            else None,
            previous=_neighbour(near.get(-1)),
            next=_neighbour(near.get(1)),
        )
    return contexts


def _node(node: dict[str, Any]) -> ContextNode:
    node_range = node.get("range") or {}
    enrichment = NodeEnrichment.model_validate(node.get("enrichment") or {})
    return ContextNode(
        node_id=str(node.get("node_id")),
        kind=_str(node.get("kind")),
        title=_str(node.get("title")),
        summary=enrichment.summary,
        entities=list(enrichment.entities),
        keywords=list(enrichment.keywords),
        page_start=_int(node.get("page_start")),
        page_end=_int(node.get("page_end")),
        start_offset=_int(node_range.get("start_offset")),
        end_offset=_int(node_range.get("end_offset")),
    )


def _neighbour(found: tuple[uuid.UUID, int, str] | None) -> NeighbourChunk | None:
    if found is None:
        return None
    chunk_id, index, text = found
    return NeighbourChunk(chunk_id=chunk_id, chunk_index=index, text=text)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
