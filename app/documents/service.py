"""Rules about documents: idempotent uploads, atomic replacement, waiting, tree reads."""

from __future__ import annotations

import asyncio
import hashlib
import time
import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.engine import Database
from app.documents import repository
from app.documents.schemas import TERMINAL_STATUSES, DocumentRead, Progress
from app.documents.upload import Upload
from app.ingestion.tree import DocumentNode, ancestors, find_node
from app.jobs import repository as jobs_repository
from app.kit.errors import Conflict, NotFound
from app.kit.pagination import Page, decode_time_cursor, encode_time_cursor
from app.knowledge_bases.service import validate_chunking
from app.models import Document, DocumentSource, KnowledgeBase

WAIT_POLL_S = 0.1


def to_read(document: Document) -> DocumentRead:
    progress = {"stage": document.status, **document.progress}
    return DocumentRead(
        id=document.id,
        knowledge_base_id=document.knowledge_base_id,
        title=document.title,
        external_id=document.external_id,
        source_uri=document.source_uri,
        filename=document.filename,
        format=document.format,
        content_sha256=document.content_sha256,
        size_bytes=document.size_bytes,
        metadata=document.metadata_,
        access=document.access,
        status=document.status,
        error=document.error,
        chunk_count=document.chunk_count,
        embedded_count=document.embedded_count,
        progress=Progress.model_validate(
            {key: progress[key] for key in Progress.model_fields if key in progress}
        ),
        created_at=document.created_at,
        updated_at=document.updated_at,
    )


def check_chunking(kb: KnowledgeBase, override: dict[str, Any] | None) -> None:
    """Reject a bad chunking override at upload rather than in the background job."""
    validate_chunking({**kb.chunking, **(override or {})})


async def create(
    session: AsyncSession,
    kb: KnowledgeBase,
    upload: Upload,
    *,
    detected_format: str,
    settings: Settings,
    visible: ColumnElement[bool],
) -> tuple[Document, bool]:
    """Queue a document for ingestion; returns (document, created). Same bytes: no new work.

    Only documents the caller may read (`visible`) are reused or replaced.
    """
    (result,) = await create_many(
        session, kb, [(upload, detected_format)], settings=settings, visible=visible
    )
    return result


async def create_many(
    session: AsyncSession,
    kb: KnowledgeBase,
    uploads: Sequence[tuple[Upload, str]],
    *,
    settings: Settings,
    visible: ColumnElement[bool],
) -> list[tuple[Document, bool]]:
    """`create` for many (upload, detected format) pairs in order, with one lookup of their
    contents and external ids and one insert of each kind for the lot: an upload sees the ones
    before it as if they had been sent in separate requests before it."""
    for upload, _ in uploads:
        check_chunking(kb, upload.chunking)
    shas = [hashlib.sha256(upload.data).hexdigest() for upload, _ in uploads]
    same_bytes = await repository.by_shas(session, kb, set(shas), visible=visible)
    holders = await repository.by_external_ids(
        session,
        kb,
        {upload.external_id for upload, _ in uploads if upload.external_id is not None},
        visible=visible,
        for_update=True,
    )
    results: list[tuple[Document, bool]] = []
    created: list[tuple[Document, Upload, str, uuid.UUID | None]] = []
    for (upload, detected_format), sha in zip(uploads, shas, strict=True):
        existing = _same_document(upload, same_bytes.get(sha, []))
        if existing is not None:
            results.append((existing, False))
            continue
        previous = holders.get(upload.external_id) if upload.external_id is not None else None
        replaces = previous.id if previous is not None else None
        document = Document(
            id=uuid.uuid4(),
            project_id=kb.project_id,
            knowledge_base_id=kb.id,
            title=upload.title or "",
            # A replacement takes the external id only when it becomes ready (see the pipeline).
            external_id=None if replaces else upload.external_id,
            source_uri=upload.source_uri,
            filename=upload.filename,
            format=detected_format,
            content_sha256=sha,
            size_bytes=len(upload.data),
            metadata_=upload.metadata,
            status="queued",
            progress={"stage": "queued"},
        )
        if upload.access is not None:
            document.access = upload.access  # left unset otherwise: SQL NULL, not JSON null
        if upload.external_id is not None and replaces is None:
            holders[upload.external_id] = document
        same_bytes.setdefault(sha, []).append(document)
        created.append((document, upload, detected_format, replaces))
        results.append((document, True))
    session.add_all([document for document, *_ in created])
    await session.flush()
    for document, upload, detected_format, replaces in created:
        session.add(
            DocumentSource(
                document_id=document.id,
                project_id=kb.project_id,
                content=upload.data,
                content_type=upload.content_type,
            )
        )
        session.add(
            jobs_repository.new_job(
                project_id=kb.project_id,
                knowledge_base_id=kb.id,
                document_id=document.id,
                kind="ingest",
                payload={
                    "format": detected_format,
                    "title": upload.title,
                    "content_type": upload.content_type,
                    "chunking": upload.chunking,
                    "replaces": str(replaces) if replaces else None,
                    "external_id": upload.external_id,
                },
                max_attempts=settings.job_max_attempts,
            )
        )
    await session.flush()
    return results


def _same_document(upload: Upload, candidates: list[Document]) -> Document | None:
    """An earlier upload of these bytes that this one is, not a new document."""
    for existing in candidates:
        if existing.access != upload.access:
            continue  # the same bytes under another access list are another document
        if upload.external_id is None or existing.external_id in (None, upload.external_id):
            return existing
    return None


async def wait_until_done(
    database: Database, document_id: uuid.UUID, *, project_id: uuid.UUID, timeout_s: float
) -> Document | None:
    """Poll until the document is ready or failed (or gone), or the timeout passes."""
    deadline = time.monotonic() + timeout_s
    while True:
        async with database.transaction(project_id=project_id) as session:
            document = await session.get(Document, document_id)
        if document is None or document.status in TERMINAL_STATUSES:
            return document
        if time.monotonic() >= deadline:
            return document
        await asyncio.sleep(WAIT_POLL_S)


async def list_page(
    session: AsyncSession,
    kb: KnowledgeBase,
    *,
    status: str | None,
    metadata: dict[str, Any] | None,
    visible: ColumnElement[bool],
    limit: int,
    cursor: str | None,
) -> Page[DocumentRead]:
    after = decode_time_cursor(cursor)
    documents, total = await repository.list_page(
        session,
        kb,
        status=status,
        metadata=metadata,
        visible=visible,
        after=after,
        limit=limit + 1,
    )
    next_cursor = None
    if len(documents) > limit:
        last = documents[limit - 1]
        next_cursor = encode_time_cursor(last.created_at, last.id)
    return Page(
        items=[to_read(d) for d in documents[:limit]],
        total=total,
        limit=limit,
        next_cursor=next_cursor,
    )


def tree_of(document: Document) -> DocumentNode:
    if document.tree is None:
        raise Conflict(f"Document {document.id} has no tree yet (status {document.status!r}).")
    return DocumentNode.model_validate(document.tree["root"])


def node_or_404(document: Document, node_id: str) -> dict[str, Any]:
    node = find_node(tree_of(document), node_id)
    if node is None:
        raise NotFound(f"No node {node_id!r} in document {document.id}.")
    return node.model_dump(mode="json")


def require_node(document: Document, node_id: str) -> None:
    """404 unless the document's tree has the node; a document without a tree (its chunks
    written through the chunk API, with node paths of the client's own) accepts any id."""
    if document.tree is not None and find_node(tree_of(document), node_id) is None:
        raise NotFound(f"No node {node_id!r} in document {document.id}.")


def ancestors_or_404(document: Document, node_id: str) -> list[dict[str, Any]]:
    root = tree_of(document)
    if find_node(root, node_id) is None:
        raise NotFound(f"No node {node_id!r} in document {document.id}.")
    # Ancestors without their subtrees: the caller wants the path, not the whole document.
    return [node.model_dump(mode="json", exclude={"children"}) for node in ancestors(root, node_id)]


async def delete(session: AsyncSession, document: Document) -> None:
    """Delete the document, its chunks, its source and its pending jobs in one transaction."""
    await jobs_repository.cancel_for_document(session, document.id)
    await session.delete(document)
    await session.flush()


async def reindex(
    session: AsyncSession, kb: KnowledgeBase, document: Document, *, settings: Settings
) -> Document:
    """Chunk and embed again with the knowledge base's current settings.

    The old chunks stay searchable until the new ones replace them in one transaction.
    """
    if document.status not in TERMINAL_STATUSES:
        raise Conflict(f"Document {document.id} is still being processed ({document.status}).")
    if document.tree is None and await session.get(DocumentSource, document.id) is None:
        raise Conflict(f"Document {document.id} has nothing to reindex from.")
    document.status = "queued"
    document.error = None
    document.progress = {"stage": "queued"}
    session.add(
        jobs_repository.new_job(
            project_id=kb.project_id,
            knowledge_base_id=kb.id,
            document_id=document.id,
            kind="reindex",
            payload={"format": document.format},
            max_attempts=settings.job_max_attempts,
        )
    )
    await session.flush()
    await session.refresh(document)
    return document
