"""All SQL about chunks but their COPY writes (app/chunks/copy_rows.py)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    and_,
    case,
    delete,
    func,
    literal,
    not_,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import True_

from app.chunks.copy_rows import ChunkRow
from app.db.tenancy import elevated
from app.kit.errors import Conflict
from app.kit.pagination import after_key
from app.knowledge_bases.repository import chunk_counts
from app.models import Chunk, Document, KnowledgeBase


async def held(
    session: AsyncSession,
    kb: KnowledgeBase,
    chunk_ids: Sequence[uuid.UUID],
    *,
    unless: ColumnElement[bool] | None,
) -> bool:
    """Whether a chunk of the knowledge base holds one of these ids and its document is not
    one `unless` admits (None: any holder counts). The holders are locked until commit, so
    the answer stands for the write that follows."""
    query = (
        select(Chunk.id)
        .join(Document, Document.id == Chunk.document_id)
        .where(Chunk.knowledge_base_id == kb.id, Chunk.id.in_(list(chunk_ids)))
        .with_for_update(of=Chunk)
    )
    if unless is not None:
        query = query.where(not_(unless))
    return (await session.execute(query.limit(1))).first() is not None


HELD_IN = text(
    "SELECT id FROM public.chunks WHERE knowledge_base_id = :kb AND project_id = :project "
    "AND id = ANY(CAST(:ids AS uuid[]))"
)


async def held_in(
    session: AsyncSession, kb: KnowledgeBase, chunk_ids: Sequence[uuid.UUID]
) -> set[uuid.UUID]:
    """Which of these ids a chunk of the knowledge base holds (the key is the knowledge base
    and the id). Read as the owner, so that no policy hides a holder the insert would collide
    with; only ids the caller already has come back."""
    if not chunk_ids:
        return set()
    async with elevated(session):
        found = await session.scalars(
            HELD_IN, {"kb": kb.id, "project": kb.project_id, "ids": list(chunk_ids)}
        )
        return set(found.all())


RESOLVE_ROUNDS = 3
INSERT_DOCUMENTS_FOR_CHUNKS = text(
    "INSERT INTO documents (id, project_id, knowledge_base_id, external_id, title, status, "
    "format) SELECT gen_random_uuid(), :project, :kb, ref, title, 'ready', 'chunks' "
    "FROM unnest(CAST(:refs AS text[]), CAST(:titles AS text[])) AS t(ref, title) "
    "ON CONFLICT (knowledge_base_id, external_id, project_id) WHERE external_id IS NOT NULL "
    "DO NOTHING RETURNING id"
)


def _not_writable(ref: str) -> Conflict:
    return Conflict(f"Document {ref!r} is not one this caller may write chunks to.")


async def resolve_documents(
    session: AsyncSession,
    kb: KnowledgeBase,
    refs: Sequence[str],
    titles: dict[str, str],
    *,
    visible: ColumnElement[bool],
) -> tuple[dict[str, uuid.UUID], set[uuid.UUID]]:
    """Map each doc ref (document id or external id) to a document, creating unknown ones;
    also the ids of those created. A document the caller cannot read (`visible`) is not
    written to: naming it, by id or external id, is a 409 (not a new document: the chunks
    meant for a private document would land in a public one)."""
    wanted = list(dict.fromkeys(refs))
    as_ids = {}
    for ref in wanted:
        try:
            as_ids[ref] = uuid.UUID(ref)
        except ValueError:
            continue
    found: dict[str, uuid.UUID] = {}
    if as_ids:
        existing = await session.execute(
            select(Document.id, visible.label("readable"))
            .where(Document.knowledge_base_id == kb.id, Document.id.in_(list(as_ids.values())))
            # Shared locks until commit: a concurrent DELETE of the document waits for the
            # chunks to be written (and then removes them) instead of failing their foreign key.
            .with_for_update(read=True)
        )
        known = {}
        for doc_id, readable in existing.all():
            if not readable:
                raise _not_writable(str(doc_id))
            known[doc_id] = readable
        found = {ref: doc_id for ref, doc_id in as_ids.items() if doc_id in known}
    external = [ref for ref in wanted if ref not in found]
    created: set[uuid.UUID] = set()
    # A holder deleted between the insert (which then did nothing) and the locking read is
    # gone when the read gets its lock: insert those again. Each round needs such a race.
    for _ in range(RESOLVE_ROUNDS):
        if not external:
            break
        inserted = await session.execute(
            INSERT_DOCUMENTS_FOR_CHUNKS,
            {
                "project": kb.project_id,
                "kb": kb.id,
                "refs": external,
                "titles": [titles.get(ref, "") for ref in external],
            },
        )
        created |= set(inserted.scalars().all())
        rows = await session.execute(
            select(Document.external_id, Document.id, visible.label("readable"))
            .where(Document.knowledge_base_id == kb.id, Document.external_id.in_(external))
            .with_for_update(read=True)
        )
        for ext, doc_id, readable in rows.all():
            assert ext is not None  # matched on it
            if not readable:
                raise _not_writable(ext)
            found[ext] = doc_id
        external = [ref for ref in external if ref not in found]
    if external:
        raise Conflict(f"Document {external[0]!r} was deleted while chunks were written to it.")
    return found, created


async def add_document_counts(
    session: AsyncSession, kb: KnowledgeBase, rows: Sequence[ChunkRow]
) -> None:
    """Count rows just inserted (`insert_rows`) into their documents' chunk counts.

    Increments, unlike a recount, read no chunk (a recount's plan under row-level security
    depends on statistics that lag behind a bulk load: up to 0.4 s per 5,000 chunks measured)
    and stay exact when two loads add to one document at once (the row lock orders them).
    The deltas travel as one JSON object looked up per document: no join to misplan either.
    """
    deltas: dict[str, list[int]] = {}
    for row in rows:
        delta = deltas.setdefault(str(row.document_id), [0, 0])
        delta[0] += 1
        delta[1] += row.embedding is not None
    if not deltas:
        return
    await session.execute(
        text(
            "UPDATE documents d SET chunk_count = d.chunk_count "
            "+ CAST(CAST(:deltas AS jsonb) -> d.id::text ->> 0 AS int), "
            "embedded_count = d.embedded_count "
            "+ CAST(CAST(:deltas AS jsonb) -> d.id::text ->> 1 AS int), updated_at = now() "
            "WHERE d.id = ANY(CAST(:ids AS uuid[])) AND d.project_id = :project"
        ),
        {"deltas": json.dumps(deltas), "ids": list(deltas), "project": kb.project_id},
    )


async def refresh_document_counts(
    session: AsyncSession, kb: KnowledgeBase, document_ids: Sequence[uuid.UUID]
) -> None:
    """Recompute chunk_count and embedded_count of the given documents."""
    if not document_ids:
        return
    # A correlated subquery per document: an index scan of its chunks whatever the planner
    # believes. As joins, under row-level security (whose filters it cannot estimate) the
    # planner came to rescan a hash join once per document (0.1-0.3 s per bulk request), or
    # to hash every chunk of the table (10-30 s at 50,000 chunks); both measured.
    await session.execute(
        text(
            "UPDATE documents d SET (chunk_count, embedded_count) = ("
            "SELECT count(*), count(*) FILTER (WHERE c.embedding IS NOT NULL) "
            # The knowledge base too: the subquery then reads that one partition.
            "FROM chunks c WHERE c.knowledge_base_id = d.knowledge_base_id "
            "AND c.project_id = d.project_id AND c.document_id = d.id), updated_at = now() "
            "WHERE d.id = ANY(CAST(:ids AS uuid[])) AND d.project_id = :project"
        ),
        {"ids": list(set(document_ids)), "project": kb.project_id},
    )


async def copy_document_fields(
    session: AsyncSession,
    document: Document,
    *,
    title: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> None:
    """Give the document's chunks its new title (`doc_title`, and so their `tsv`) and, where
    they have no metadata of their own, its new metadata: the copies ingestion made."""
    values: dict[Any, Any] = {Chunk.updated_at: func.now()}
    conditions = [
        Chunk.knowledge_base_id == document.knowledge_base_id,
        Chunk.document_id == document.id,
    ]
    if title is not None:
        values[Chunk.doc_title] = title
    if metadata is not None:
        copied = literal(metadata, JSONB)
        values[Chunk.metadata_] = case((Chunk.own_metadata, Chunk.metadata_), else_=copied)
        if title is None:
            conditions.append(~Chunk.own_metadata)
    if len(values) == 1:
        return
    await session.execute(
        update(Chunk).where(*conditions).values(values).execution_options(synchronize_session=False)
    )


def _readable(kb: KnowledgeBase, visible: ColumnElement[bool]) -> ColumnElement[bool]:
    """Chunks of documents the caller may read (`visible`: see app/auth/acl.py)."""
    return Chunk.document_id.in_(
        select(Document.id).where(Document.knowledge_base_id == kb.id, visible)
    )


async def get(
    session: AsyncSession,
    kb: KnowledgeBase,
    chunk_id: uuid.UUID,
    *,
    visible: ColumnElement[bool] | None = None,
) -> Chunk | None:
    conditions = [Chunk.knowledge_base_id == kb.id, Chunk.id == chunk_id]
    if visible is not None:
        conditions.append(_readable(kb, visible))
    return await session.scalar(select(Chunk).where(*conditions))


async def list_page(
    session: AsyncSession,
    kb: KnowledgeBase,
    *,
    document_id: uuid.UUID | None,
    embedded: bool | None,
    after: tuple[uuid.UUID, int, uuid.UUID] | None,
    limit: int,
    visible: ColumnElement[bool] | None = None,
    node_id: str | None = None,
    node_range: tuple[int, int] | None = None,
) -> tuple[list[Chunk], int]:
    """Chunks ordered by (document, chunk_index, id) and the total matching the filters.

    `node_id`: chunks under that tree node, by lineage, or holding any of its text when its
    `node_range` is known: a tiny section merged into a neighbour's chunk has its text in a
    chunk whose lineage names only their common parent.
    """
    conditions = [Chunk.knowledge_base_id == kb.id]
    # Every chunk belongs to a document of its knowledge base: a caller who may read them all
    # needs no test of each chunk's document.
    if visible is not None and not isinstance(visible, True_):
        conditions.append(_readable(kb, visible))
    if document_id is not None:
        conditions.append(Chunk.document_id == document_id)
    if node_id is not None:
        under = Chunk.node_path.contains([node_id])
        if node_range is not None:
            start, end = node_range
            under = or_(under, and_(Chunk.start_offset < end, Chunk.end_offset > start))
        conditions.append(under)
    if embedded is not None:
        conditions.append(Chunk.embedding.is_not(None) if embedded else Chunk.embedding.is_(None))
    query = select(Chunk).where(*conditions)
    query = query.where(after_key((Chunk.document_id, Chunk.chunk_index, Chunk.id), after))
    query = query.order_by(Chunk.document_id, Chunk.chunk_index, Chunk.id).limit(limit)
    chunks = list((await session.scalars(query)).all())
    if len(conditions) == 1:
        # The whole knowledge base: its tally, not a count of every chunk on each page.
        return chunks, (await chunk_counts(session, [kb.id]))[kb.id]
    total = await session.scalar(select(func.count()).select_from(Chunk).where(*conditions))
    return chunks, int(total or 0)


async def counts(session: AsyncSession, kb: KnowledgeBase) -> tuple[int, int]:
    row = (
        await session.execute(
            select(func.count(), func.count(Chunk.embedding)).where(
                Chunk.knowledge_base_id == kb.id
            )
        )
    ).one()
    return int(row[0]), int(row[1])


async def delete_where(
    session: AsyncSession, kb: KnowledgeBase, *, document_id: uuid.UUID | None = None
) -> tuple[int, list[uuid.UUID]]:
    """Delete the knowledge base's chunks (of one document if given); returns count and docs."""
    statement = delete(Chunk).where(Chunk.knowledge_base_id == kb.id)
    if document_id is not None:
        statement = statement.where(Chunk.document_id == document_id)
    result = await session.execute(statement.returning(Chunk.document_id))
    document_ids = list(result.scalars().all())
    return len(document_ids), list(set(document_ids))


async def clear_document_counts(session: AsyncSession, kb: KnowledgeBase) -> None:
    await session.execute(
        update(Document)
        .where(Document.knowledge_base_id == kb.id)
        .values(chunk_count=0, embedded_count=0, updated_at=func.now())
    )
