"""Rules about knowledge bases: naming, the fixed embedding, cascading delete."""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.embeddings.registry import input_window
from app.events import service as events
from app.graph import stage as graph_stage
from app.graph.settings import enrichment_of, graph_of, wants_stage
from app.ingestion.chunking import ROW_FORMATS, ChunkingConfig, token_budget
from app.kit.errors import Conflict, NotFound, ValidationFailed
from app.kit.pagination import Page, decode_time_cursor, encode_time_cursor
from app.knowledge_bases import repository
from app.knowledge_bases.schemas import (
    DEFAULT_LOCAL_DIMENSIONS,
    DEFAULT_LOCAL_MODEL,
    EmbeddingConfig,
    EmbeddingConfigRead,
    HnswConfig,
    KnowledgeBaseCreate,
    KnowledgeBaseRead,
    KnowledgeBaseUpdate,
)
from app.models import Document, KnowledgeBase

IMMUTABLE_EMBEDDING_HINT = (
    "The embedding model and dimensions of a knowledge base are fixed: create a new "
    "knowledge base with the new embedding and re-ingest, or re-embed into it."
)


def validate_chunking(chunking: dict[str, Any], *, provider: str | None = None) -> dict[str, Any]:
    """Chunking settings as given, once they validate; a 422 naming the problem otherwise.

    With the embedding `provider`, also what ingestion checks against its model's window
    (`token_budget`): settings every upload would fail with are refused when they are given.
    """
    try:
        config = ChunkingConfig(**chunking)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'chunking'}: {e['msg']}" for e in exc.errors()
        )
        raise ValidationFailed(f"Invalid chunking settings: {problems}") from exc
    if provider is not None:
        try:
            token_budget(config, embedder_window=input_window(provider))
        except ValidationFailed as exc:
            raise ValidationFailed(f"Invalid chunking settings: {exc.detail}") from exc
    return chunking


def chunks_csv_only(chunking: dict[str, Any]) -> bool:
    """The csv_rows strategy: it cuts CSV rows, and fails on any other document."""
    return chunking.get("strategy") == "csv_rows"


def check_chunking(
    kb: KnowledgeBase, override: dict[str, Any] | None, *, document_format: str
) -> None:
    """Reject an upload's chunking override (merged over the knowledge base's settings) that
    its ingestion would fail with, at upload rather than in the background job."""
    merged = {**kb.chunking, **(override or {})}
    validate_chunking(merged, provider=kb.embedding_provider)
    if chunks_csv_only(merged) and document_format not in ROW_FORMATS:
        raise ValidationFailed(
            f"The csv_rows strategy needs a CSV document; this one is {document_format} "
            "(spreadsheets take it too). Send "
            'another `chunking` (e.g. {"strategy": "hierarchical"}) with it.'
        )


def resolve_embedding(config: EmbeddingConfig) -> EmbeddingConfigRead:
    """Fill the defaults of an embedding request and reject impossible combinations."""
    if config.provider == "local":
        if config.model not in (None, DEFAULT_LOCAL_MODEL):
            raise ValidationFailed(
                f"The local provider serves only {DEFAULT_LOCAL_MODEL!r}, not {config.model!r}; "
                "use provider 'openai' for another model."
            )
        if config.dimensions not in (None, DEFAULT_LOCAL_DIMENSIONS):
            raise ValidationFailed(
                f"{DEFAULT_LOCAL_MODEL} has {DEFAULT_LOCAL_DIMENSIONS} dimensions, "
                f"not {config.dimensions}."
            )
        return EmbeddingConfigRead(
            provider="local",
            model=DEFAULT_LOCAL_MODEL,
            dimensions=DEFAULT_LOCAL_DIMENSIONS,
            variant=config.variant or "int8",
        )
    if config.provider == "openai":
        if not config.model or not config.dimensions:
            raise ValidationFailed("The openai provider needs both `model` and `dimensions`.")
        return EmbeddingConfigRead(
            provider="openai",
            model=config.model,
            dimensions=config.dimensions,
            variant="remote",
            base_url=str(config.base_url) if config.base_url else "https://api.openai.com/v1",
            api_key_env=config.api_key_env or "OPENAI_API_KEY",
        )
    return EmbeddingConfigRead(
        provider="none",
        model=config.model or "none",
        dimensions=config.dimensions or DEFAULT_LOCAL_DIMENSIONS,
        variant="none",
    )


def embedding_of(kb: KnowledgeBase) -> EmbeddingConfigRead:
    return EmbeddingConfigRead(
        provider=kb.embedding_provider,
        model=kb.embedding_model,
        dimensions=kb.embedding_dimensions,
        variant=kb.embedding_variant,
        base_url=kb.embedding_options.get("base_url"),
        api_key_env=kb.embedding_options.get("api_key_env"),
    )


def to_read(kb: KnowledgeBase, document_count: int, chunk_count: int) -> KnowledgeBaseRead:
    return KnowledgeBaseRead(
        id=kb.id,
        name=kb.name,
        title=kb.title,
        description=kb.description,
        embedding=embedding_of(kb),
        chunking=kb.chunking,
        text_search_language=kb.text_search_language,
        hnsw=HnswConfig(m=kb.hnsw_m, ef_construction=kb.hnsw_ef_construction),
        search_modes=["hybrid", "vector", "text"],
        embeds_queries=kb.embedding_provider != "none",
        enrichment=enrichment_of(kb.enrichment),
        graph=graph_of(kb.graph),
        document_count=document_count,
        chunk_count=chunk_count,
        created_at=kb.created_at,
        updated_at=kb.updated_at,
    )


async def _read(session: AsyncSession, kb: KnowledgeBase) -> KnowledgeBaseRead:
    await session.flush()
    await session.refresh(kb)
    return to_read(kb, *await repository.counts(session, kb.id))


async def _ensure_name_free(
    session: AsyncSession, *, project_id: uuid.UUID, name: str, exclude: uuid.UUID | None = None
) -> None:
    if await repository.name_taken(session, project_id=project_id, name=name, exclude=exclude):
        raise Conflict(f"A knowledge base named {name!r} already exists in this project.")


async def create(
    session: AsyncSession, *, project_id: uuid.UUID, data: KnowledgeBaseCreate
) -> KnowledgeBaseRead:
    await _ensure_name_free(session, project_id=project_id, name=data.name)
    if not await repository.text_search_config_exists(session, data.text_search_language):
        raise ValidationFailed(
            f"Unknown text search language {data.text_search_language!r}; "
            "use a Postgres text search configuration such as 'english' or 'simple'."
        )
    embedding = resolve_embedding(data.embedding)
    options = {
        key: value
        for key, value in (("base_url", embedding.base_url), ("api_key_env", embedding.api_key_env))
        if value
    }
    kb = KnowledgeBase(
        id=uuid.uuid4(),
        project_id=project_id,
        name=data.name,
        title=data.title or data.name,
        description=data.description,
        embedding_provider=embedding.provider,
        embedding_model=embedding.model,
        embedding_dimensions=embedding.dimensions,
        embedding_variant=embedding.variant,
        embedding_options=options,
        chunking=validate_chunking(data.chunking, provider=embedding.provider),
        text_search_language=data.text_search_language,
        hnsw_m=data.hnsw.m,
        hnsw_ef_construction=data.hnsw.ef_construction,
        enrichment=data.enrichment.model_dump(),
        graph=data.graph.model_dump(),
    )
    session.add(kb)
    await session.flush()
    events.knowledge_base_event(session, kb, "knowledge_base.created")
    # Its vector index is built after the commit, concurrently (app/chunks/index_upkeep.py).
    return await _read(session, kb)


async def get_or_404(session: AsyncSession, *, project_id: uuid.UUID, ref: str) -> KnowledgeBase:
    kb = await repository.get_by_ref(session, project_id=project_id, ref=ref)
    if kb is None:
        raise NotFound(f"No knowledge base {ref!r}.")
    return kb


async def get(session: AsyncSession, kb: KnowledgeBase) -> KnowledgeBaseRead:
    return to_read(kb, *await repository.counts(session, kb.id))


async def list_page(
    session: AsyncSession, *, project_id: uuid.UUID, limit: int, cursor: str | None
) -> Page[KnowledgeBaseRead]:
    after = decode_time_cursor(cursor)
    rows = await repository.list_page(session, project_id=project_id, limit=limit + 1, after=after)
    items = [to_read(*row) for row in rows[:limit]]
    next_cursor = None
    if len(rows) > limit:
        last = items[-1]
        next_cursor = encode_time_cursor(last.created_at, last.id)
    total = await repository.count(session, project_id=project_id)
    return Page(items=items, total=total, limit=limit, next_cursor=next_cursor)


async def update(
    session: AsyncSession, kb: KnowledgeBase, data: KnowledgeBaseUpdate
) -> KnowledgeBaseRead:
    if data.embedding is not None and resolve_embedding(data.embedding) != embedding_of(kb):
        raise ValidationFailed(IMMUTABLE_EMBEDDING_HINT)
    if data.name is not None and data.name != kb.name:
        await _ensure_name_free(session, project_id=kb.project_id, name=data.name, exclude=kb.id)
        kb.name = data.name
    if data.title is not None:
        kb.title = data.title
    if data.description is not None:
        kb.description = data.description
    if data.chunking is not None:
        kb.chunking = validate_chunking(data.chunking, provider=kb.embedding_provider)
    if await _update_graph_settings(session, kb, data):
        await session.flush()
        await graph_stage.queue_for_knowledge_base(session, kb)
    events.knowledge_base_event(session, kb, "knowledge_base.updated")
    return await _read(session, kb)


async def _update_graph_settings(
    session: AsyncSession, kb: KnowledgeBase, data: KnowledgeBaseUpdate
) -> bool:
    """Apply changed enrichment or graph settings; True when the existing documents need the
    graph stage again (something was turned on or changed, not merely restated)."""
    changed = False
    if data.enrichment is not None and data.enrichment != enrichment_of(kb.enrichment):
        kb.enrichment = data.enrichment.model_dump()
        changed = True
    if data.graph is not None and data.graph != graph_of(kb.graph):
        if not data.graph.enabled and graph_of(kb.graph).enabled:
            await graph_stage.drop_graph(session, kb)
        kb.graph = data.graph.model_dump()
        changed = True
    return changed and wants_stage(kb.enrichment, kb.graph)


async def delete(session: AsyncSession, kb: KnowledgeBase) -> None:
    """Remove the knowledge base, its documents and chunks in one transaction, with row locks
    only: its vector index goes after the commit (app/chunks/index_upkeep.py). A deletion
    that finds it deleted meanwhile by another is a 404, and writes no second event."""
    # FOR NO KEY UPDATE: concurrent deletions queue here, while ingestion's foreign-key checks
    # (FOR KEY SHARE of this row) do not wait for it.
    locked = await session.get(
        KnowledgeBase,
        kb.id,
        with_for_update={"key_share": True},
        populate_existing=True,
    )
    if locked is None:
        raise NotFound(f"Knowledge base {kb.name!r} was deleted meanwhile.")
    # Then its documents' row locks, in id order, as ingestion takes them, before anything
    # locks the chunks table or this row for the delete: the other order deadlocked with a
    # store step holding one of these documents.
    await session.execute(
        select(Document.id)
        .where(Document.knowledge_base_id == kb.id)
        .order_by(Document.id)
        .with_for_update()
    )
    events.knowledge_base_event(session, locked, "knowledge_base.deleted")
    await session.delete(locked)
    await session.flush()
