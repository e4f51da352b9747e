"""Rules about documents: idempotent uploads, atomic replacement, waiting, deletion, reindex.

A PATCH is in app/documents/updates.py, tree reads in app/documents/tree_reads.py.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
import uuid
from collections.abc import Sequence
from typing import Any, Literal

from sqlalchemy import ColumnElement, true
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.engine import Database
from app.documents import repository
from app.documents.schemas import (
    TERMINAL_STATUSES,
    DocumentDeleteResult,
    DocumentRead,
    Progress,
)
from app.documents.upload import Upload
from app.documents.versions import Catalogue
from app.events import service as events
from app.jobs import repository as jobs_repository
from app.kit.broadcast import Broadcast, wait_turn
from app.kit.errors import Conflict, ValidationFailed
from app.kit.filters import matches_all_somewhere
from app.kit.pagination import Page, decode_time_cursor, encode_time_cursor
from app.knowledge_bases import service as knowledge_bases
from app.models import Document, DocumentSource, KnowledgeBase

WAIT_POLL_S = 0.1


def to_read(document: Document) -> DocumentRead:
    progress = {"stage": document.status, **document.progress}
    if document.status == "ready":
        # A ready document's chunks are its counts, however they changed since its job ended
        # (the chunk API, `chunks/embed`, deletes): every writer keeps the counts, this the
        # progress that mirrors them, so the two cannot disagree.
        progress |= {
            "chunks_total": document.chunk_count,
            "chunks_embedded": document.embedded_count,
        }
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
        source_id=document.source_id,
        source_record_id=document.source_record_id,
    )


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
    before it as if they had been sent in separate requests before it (app/documents/versions.py
    has the rules)."""
    shas = [hashlib.sha256(upload.data).hexdigest() for upload, _ in uploads]
    external_ids = {upload.external_id for upload, _ in uploads if upload.external_id is not None}
    await repository.lock_versions(session, kb.id, shas=shas, external_ids=external_ids)
    catalogue = await _catalogue(session, kb, set(shas), external_ids, visible)
    hidden = await repository.by_external_ids(
        session, kb, external_ids - catalogue.holders.keys(), visible=true()
    )
    if hidden:
        # Neither replaced nor taken over: the caller cannot read the holder. Said here; the
        # unique index would refuse the insert with a message that reads like a race.
        index = next(i for i, (upload, _) in enumerate(uploads) if upload.external_id in hidden)
        where = f"documents[{index}]: " if len(uploads) > 1 else ""
        raise Conflict(
            f"{where}External id {uploads[index][0].external_id!r} is in use in this knowledge "
            "base by a document you cannot read: upload with another external id, or without "
            "one.",
            extra={"index": index} if len(uploads) > 1 else None,
        )
    results: list[tuple[Document, bool]] = []
    created: dict[uuid.UUID, tuple[Document, Upload, str, Document | None]] = {}
    for (upload, detected_format), sha in zip(uploads, shas, strict=True):
        decision = catalogue.decide(sha, upload.external_id, upload.access)
        superseded = decision.supersedes
        # One that came earlier in this batch is not inserted yet: then it never will be.
        if superseded is not None and created.pop(superseded.id, None) is None:
            await delete(session, superseded, reason="superseded")
        if decision.reuse is not None:
            if decision.attach:
                decision.reuse.external_id = upload.external_id
                await session.flush()
                await session.refresh(decision.reuse)  # its new updated_at, for the answer
            catalogue.record(decision, decision.reuse, sha, upload.external_id)
            results.append((decision.reuse, False))
            continue
        document = Document(
            id=uuid.uuid4(),
            project_id=kb.project_id,
            knowledge_base_id=kb.id,
            title=upload.title or "",
            # A new version takes the external id only when it becomes ready (the pipeline).
            external_id=None if decision.replaces else upload.external_id,
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
        catalogue.record(decision, document, sha, upload.external_id)
        created[document.id] = (document, upload, detected_format, decision.replaces)
        results.append((document, True))
    session.add_all([document for document, *_ in created.values()])
    await session.flush()
    for document, upload, detected_format, replaces in created.values():
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
                    "replaces": str(replaces.id) if replaces else None,
                    "external_id": upload.external_id,
                },
                max_attempts=settings.job_max_attempts,
            )
        )
    await session.flush()
    return results


async def _catalogue(
    session: AsyncSession,
    kb: KnowledgeBase,
    shas: set[str],
    external_ids: set[str],
    visible: ColumnElement[bool],
) -> Catalogue:
    same_bytes = await repository.by_shas(session, kb, shas, visible=visible)
    holders = await repository.by_external_ids(
        session, kb, external_ids, visible=visible, for_update=True
    )
    candidates = [d for documents in same_bytes.values() for d in documents]
    catalogue = Catalogue(same_bytes=same_bytes, holders=holders)
    for document, external_id in await repository.pending_versions(
        session,
        kb,
        external_ids=external_ids | {d.external_id for d in candidates if d.external_id},
        document_ids={d.id for d in candidates},
        visible=visible,
    ):
        catalogue.add_pending(document, external_id)
    return catalogue


async def wait_until_done(
    database: Database,
    document_id: uuid.UUID,
    *,
    project_id: uuid.UUID,
    timeout_s: float,
    jobs_ran: Broadcast | None = None,
) -> Document | None:
    """Look until the document is ready or failed (or gone), or the timeout passes: again
    after each job this process's workers run (`jobs_ran`), and every WAIT_POLL_S for the
    workers of other processes."""
    deadline = time.monotonic() + timeout_s
    while True:
        turn = jobs_ran.turn() if jobs_ran is not None else asyncio.Event()
        async with database.transaction(project_id=project_id) as session:
            document = await session.get(Document, document_id)
        if document is None or document.status in TERMINAL_STATUSES:
            return document
        left = deadline - time.monotonic()
        if left <= 0:
            return document
        await wait_turn(turn, min(WAIT_POLL_S, left))


async def list_page(
    session: AsyncSession,
    kb: KnowledgeBase,
    *,
    status: str | None,
    metadata: dict[str, Any] | None,
    filter_spec: Any,
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
        where=None if filter_spec is None else repository.document_filter(filter_spec),
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


async def delete_matching(
    session: AsyncSession,
    kb: KnowledgeBase,
    filter_spec: Any,
    *,
    visible: ColumnElement[bool],
    dry_run: bool,
) -> DocumentDeleteResult:
    """Delete the readable documents a filter matches, as DELETE does one by one, in one
    transaction: all of them or none."""
    where = repository.document_filter(filter_spec)  # a malformed filter is a 422 first
    if matches_all_somewhere(filter_spec):
        raise ValidationFailed(
            "`filter` holds an empty object, which matches every document; to delete every "
            'document, delete the knowledge base or say so: {"doc_id": {"$exists": true}}.'
        )
    documents = await repository.matching(session, kb, where, visible=visible)
    if documents and not dry_run:
        ids = [document.id for document in documents]
        for document in documents:
            events.document_event(session, document, "document.deleted", reason="deleted")
        await jobs_repository.cancel_for_documents(session, ids)
        await repository.delete_ids(session, ids)
    return DocumentDeleteResult(deleted=len(documents), dry_run=dry_run)


async def delete(
    session: AsyncSession,
    document: Document,
    *,
    reason: Literal["deleted", "superseded"] = "deleted",
) -> None:
    """Delete the document, its chunks, its source and its pending jobs in one transaction."""
    # The document's row lock first, its jobs' after, as ingestion takes them: cancelling the
    # jobs first deadlocked with a batch storing this document (seen in QA).
    locked = await session.get(Document, document.id, with_for_update=True, populate_existing=True)
    if locked is None:
        return  # deleted meanwhile, by a replacement or another DELETE: nothing is left to do
    events.document_event(session, locked, "document.deleted", reason=reason)
    await jobs_repository.cancel_for_documents(session, [locked.id])
    await session.delete(locked)
    await session.flush()


async def reindex(
    session: AsyncSession, kb: KnowledgeBase, document: Document, *, settings: Settings
) -> Document:
    """Chunk and embed again with the knowledge base's current settings.

    The old chunks stay searchable until the new ones replace them in one transaction.
    """
    if document.status not in TERMINAL_STATUSES:
        raise Conflict(f"Document {document.id} is still being processed ({document.status}).")
    if (
        not await repository.has_tree(session, document.id)
        and await session.get(DocumentSource, document.id) is None
    ):
        raise Conflict(f"Document {document.id} has nothing to reindex from.")
    # Settings the job would fail with are a 422 now, as at upload (csv_rows on a PDF...).
    knowledge_bases.check_chunking(kb, None, document_format=document.format or "unknown")
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


async def delete_of_source(
    session: AsyncSession,
    kb: KnowledgeBase,
    source_id: uuid.UUID,
    *,
    record_ids: Sequence[str] | None = None,
) -> int:
    """Delete the documents a knowledge source wrote (those of some of its records), every
    version of each, as DELETE does; how many."""
    spec: dict[str, Any] = {"source_id": str(source_id)}
    if record_ids is not None:
        spec["source_record_id"] = {"$in": list(record_ids)}
    result = await delete_matching(session, kb, spec, visible=true(), dry_run=False)
    return result.deleted


async def mark_source(
    session: AsyncSession, source_id: uuid.UUID, records: Sequence[tuple[uuid.UUID, str]]
) -> None:
    """Documents (id, record id) were written by the knowledge source."""
    await repository.set_source(session, source_id, records)


async def detach_source(session: AsyncSession, source_id: uuid.UUID) -> int:
    return await repository.detach_source(session, source_id)


async def external_id_sources(
    session: AsyncSession, kb: KnowledgeBase, external_ids: Sequence[str]
) -> dict[str, uuid.UUID | None]:
    return await repository.external_id_sources(session, kb.id, external_ids)
