"""A knowledge base copied into a new one with other settings: how a model changes.

A knowledge base's embedding model is fixed (its vectors and index have its dimension), so a
new model means new vectors for every chunk. Peers' users report that re-embedding "hangs";
here it is the ingestion pipeline's ordinary work: the copy is a new knowledge base whose
documents are the source's trees, queued, each chunked and embedded by the durable job loops
with their progress on the document, while the source stays searchable. Clients switch when
the copy's documents are ready, then delete the source.
"""

from __future__ import annotations

import uuid

from pydantic import BaseModel, Field
from sqlalchemy import ColumnElement, func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.events import service as events
from app.ingestion.chunking import ROW_FORMATS
from app.jobs import repository as jobs_repository
from app.kit.errors import ValidationFailed
from app.knowledge_bases import service
from app.knowledge_bases.schemas import KnowledgeBaseCreate, KnowledgeBaseRead
from app.models import Document, KnowledgeBase

# The document's columns a copy keeps as they are; status, progress and counts follow the tree.
_KEPT = (
    "title",
    "external_id",
    "source_uri",
    "filename",
    "format",
    "content_sha256",
    "size_bytes",
    "metadata",
    "access",
    "tree",
)
COPY_DOCUMENTS = text(
    f"INSERT INTO documents (id, project_id, knowledge_base_id, {', '.join(_KEPT)}, status, "
    "progress, chunk_count, embedded_count) "
    f"SELECT m.new_id, d.project_id, :target, {', '.join(f'd.{column}' for column in _KEPT)}, "
    "CASE WHEN d.tree IS NULL THEN 'ready' ELSE 'queued' END, "
    "jsonb_build_object('stage', CASE WHEN d.tree IS NULL THEN 'ready' ELSE 'queued' END), "
    "CASE WHEN d.tree IS NULL THEN d.chunk_count ELSE 0 END, 0 "
    "FROM unnest(CAST(:old_ids AS uuid[]), CAST(:new_ids AS uuid[])) AS m(old_id, new_id) "
    "JOIN documents d ON d.id = m.old_id"
)
# Documents without a tree (written through the chunk API, or imported as chunks) keep their
# chunks, lineage and spans included, without vectors: the `embed` job gives them the new
# model's. Those with a tree are chunked again, which computes their spans anew.
COPY_TREELESS_CHUNKS = text(
    "INSERT INTO chunks (id, project_id, knowledge_base_id, document_id, chunk_index, text, "
    "text_sha256, node_path, depth, leaf_node_id, section_titles, doc_title, page_start, "
    "page_end, start_offset, end_offset, metadata, own_metadata, spans, ts_config) "
    "SELECT gen_random_uuid(), c.project_id, :target, m.new_id, c.chunk_index, c.text, "
    "c.text_sha256, c.node_path, c.depth, c.leaf_node_id, c.section_titles, c.doc_title, "
    "c.page_start, c.page_end, c.start_offset, c.end_offset, c.metadata, c.own_metadata, "
    "c.spans, CAST(:language AS regconfig) "
    "FROM unnest(CAST(:old_ids AS uuid[]), CAST(:new_ids AS uuid[])) AS m(old_id, new_id) "
    "JOIN documents s ON s.id = m.old_id AND s.tree IS NULL "
    "JOIN chunks c ON c.knowledge_base_id = :source AND c.document_id = m.old_id"
)
QUEUE_INGESTION = text(
    "INSERT INTO jobs (id, project_id, knowledge_base_id, document_id, kind, status, payload, "
    "max_attempts) "
    "SELECT gen_random_uuid(), d.project_id, d.knowledge_base_id, d.id, 'ingest', 'queued', "
    "jsonb_build_object('format', d.format), :max_attempts "
    "FROM documents d WHERE d.knowledge_base_id = :target AND d.tree IS NOT NULL"
)


class KnowledgeBaseCopy(KnowledgeBaseCreate):
    """The new knowledge base, as a create takes it: any embedding model, chunking, language."""


class KnowledgeBaseCopied(BaseModel):
    knowledge_base: KnowledgeBaseRead
    documents: int = Field(description="Documents copied.")
    queued: int = Field(
        description="Of them, those with a tree: queued to be chunked and embedded again "
        "(watch their `status`, or `GET .../documents?status=queued`)."
    )
    chunks_to_embed: int = Field(
        description="Chunks of documents without a tree (the chunk API's), copied without "
        "vectors; the `embed` job gives them the new model's."
    )
    embed_job_id: uuid.UUID | None = None
    not_copied: int = Field(
        description="Documents left out: not ready (still being ingested, or failed), or not "
        "readable by the caller."
    )


async def copy_into(
    session: AsyncSession,
    source: KnowledgeBase,
    data: KnowledgeBaseCopy,
    *,
    visible: ColumnElement[bool],
    settings: Settings,
) -> KnowledgeBaseCopied:
    """Create the new knowledge base and copy the source's ready, readable documents into it,
    in one transaction; the job loops do the rest."""
    if service.chunks_csv_only(data.chunking):
        await _only_csv_to_chunk(session, source, visible)
    created = await service.create(session, project_id=source.project_id, data=data)
    rows = await session.execute(
        select(Document.id, Document.status).where(Document.knowledge_base_id == source.id, visible)
    )
    statuses = rows.all()
    old_ids = [doc_id for doc_id, status in statuses if status == "ready"]
    new_ids = [uuid.uuid4() for _ in old_ids]
    mapping = {"old_ids": old_ids, "new_ids": new_ids, "target": created.id}
    if old_ids:
        await session.execute(COPY_DOCUMENTS, mapping)
        await session.execute(
            COPY_TREELESS_CHUNKS,
            {**mapping, "source": source.id, "language": data.text_search_language},
        )
        # Ready at once, as a document the chunk API makes is: announced the same way (those
        # with a tree are announced by the pipeline when they are ready).
        ready = await session.scalars(
            select(Document).where(
                Document.knowledge_base_id == created.id, Document.tree.is_(None)
            )
        )
        for document in ready.all():
            events.document_event(session, document, "document.ready", replaced=None)
    queued = (
        await session.execute(
            QUEUE_INGESTION, {"target": created.id, "max_attempts": settings.job_max_attempts}
        )
    ).rowcount  # type: ignore[attr-defined]
    chunks_to_embed = int(
        await session.scalar(
            text("SELECT count(*) FROM chunks WHERE knowledge_base_id = :target"),
            {"target": created.id},
        )
        or 0
    )
    embed_job_id = None
    if chunks_to_embed and data.embedding.provider != "none":
        job = jobs_repository.new_job(
            project_id=source.project_id,
            knowledge_base_id=created.id,
            document_id=None,
            kind="embed",
            payload={},
            max_attempts=settings.job_max_attempts,
        )
        session.add(job)
        embed_job_id = job.id
    await session.flush()
    target = await session.get(KnowledgeBase, created.id)
    assert target is not None
    return KnowledgeBaseCopied(
        knowledge_base=await service.get(session, target),
        documents=len(old_ids),
        queued=int(queued),
        chunks_to_embed=chunks_to_embed,
        embed_job_id=embed_job_id,
        not_copied=len(statuses) - len(old_ids),
    )


async def _only_csv_to_chunk(
    session: AsyncSession, source: KnowledgeBase, visible: ColumnElement[bool]
) -> None:
    """csv_rows chunks CSV only: documents of another format the copy would chunk again (those
    with a tree) would all fail in the background, so the copy is refused up front."""
    others = (
        await session.execute(
            select(Document.format, func.count())
            .where(
                Document.knowledge_base_id == source.id,
                Document.status == "ready",
                Document.tree.is_not(None),
                Document.format.not_in(ROW_FORMATS),
                visible,
            )
            .group_by(Document.format)
            .order_by(Document.format)
        )
    ).all()
    if others:
        found = ", ".join(f"{count} {fmt}" for fmt, count in others)
        raise ValidationFailed(
            f"The csv_rows strategy needs CSV documents; the copy would chunk others ({found})."
        )
