"""Rules about chunks: dimension checks, document resolution, embedding, all-or-nothing writes."""

from __future__ import annotations

import base64
import logging
import uuid
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from sqlalchemy import ColumnElement, true
from sqlalchemy.ext.asyncio import AsyncSession

from app.chunks import copy_rows, repository
from app.chunks.copy_rows import ChunkRow
from app.chunks.embedding import (
    DocumentEmbedder,
    embed_texts,
    embedding_input,
    text_sha256,
    wants_context_header,
)
from app.chunks.schemas import (
    ChunkBulkItem,
    ChunkBulkResult,
    ChunkCount,
    ChunkDeleteResult,
    ChunkLineage,
    ChunkRead,
    ChunkUpsert,
)
from app.documents import repository as documents_repository
from app.embeddings.base import EmbeddingError
from app.events import service as events
from app.kit.errors import Conflict, NotFound, ValidationFailed
from app.kit.pagination import Page, decode_cursor, encode_cursor
from app.kit.vectors import as_float32, vector_problem
from app.models import Chunk, KnowledgeBase

logger = logging.getLogger(__name__)


class ChunkIdInUse(Conflict):
    """A client-chosen chunk id that a chunk of this knowledge base holds, in a document the
    caller may not read (or any chunk, for an import that only creates). Ids are unique within
    a knowledge base, so nothing about other knowledge bases is ever in this answer."""

    type_ = "chunk-id-in-use"
    title = "Chunk id in use"


CHUNK_ID_IN_USE = (
    "A chunk_id in the request is already in use in this knowledge base by a chunk this "
    "request may not replace: omit chunk_id to get a fresh one, or choose another."
)


def vector_values(kb: KnowledgeBase, vector: Sequence[float] | str, *, where: str) -> np.ndarray:
    """The supplied vector as float32: the knowledge base's dimension, finite, not all zeros."""
    if isinstance(vector, str):
        try:
            raw = base64.b64decode(vector, validate=True)
        except ValueError:  # binascii.Error, or a string that is not ASCII
            raise ValidationFailed(
                f"{where} is neither a list of numbers nor base64 (float32 little-endian)."
            ) from None
        if len(raw) % 4:
            raise ValidationFailed(
                f"{where} decodes to {len(raw)} bytes, not a whole number of float32 values."
            )
        values = np.frombuffer(raw, dtype="<f4")
    else:
        values = as_float32(vector)
    if len(values) != kb.embedding_dimensions:
        raise ValidationFailed(
            f"{where} has {len(values)} dimensions; knowledge base {kb.name!r} expects "
            f"{kb.embedding_dimensions}.",
            extra={"expected_dimensions": kb.embedding_dimensions, "given_dimensions": len(values)},
        )
    problem = vector_problem(values)
    if problem is not None:
        raise ValidationFailed(f"{where} {problem}.")
    return values


def supplied_vectors(kb: KnowledgeBase, items: Sequence[ChunkUpsert]) -> dict[int, np.ndarray]:
    """The supplied vectors by position in `items`, checked as `vector_values` checks them.

    When all of them are base64 of exactly the knowledge base's dimension without padding,
    they are decoded as one string into one matrix and checked at once (a bulk load of 5,000
    spends about 8 ms instead of 45); anything else, or any check failing, goes one by one,
    which names the first bad vector.
    """
    positions = [position for position, item in enumerate(items) if item.vector is not None]
    encoded = [items[position].vector for position in positions]
    size = kb.embedding_dimensions * 4
    # Base64 pads only a byte count that is not a multiple of 3.
    length = size // 3 * 4
    if (
        encoded
        and size % 3 == 0
        and all(isinstance(vector, str) and len(vector) == length for vector in encoded)
    ):
        try:
            raw = base64.b64decode("".join(cast(list[str], encoded)), validate=True)
        except ValueError:  # binascii.Error, or a string that is not ASCII
            raw = b""
        if len(raw) == size * len(encoded):
            matrix = np.frombuffer(raw, dtype="<f4").reshape(len(encoded), -1)
            # A zero row poisons search (cosine to it is undefined): one by one names it.
            if np.isfinite(matrix).all() and matrix.any(axis=1).all():
                return dict(zip(positions, matrix, strict=True))
    return {
        position: vector_values(kb, vector, where=f"chunks[{position}].vector")
        for position, vector in zip(positions, cast(list[list[float] | str], encoded), strict=True)
    }


def lineage_of(chunk: Chunk) -> dict[str, Any]:
    """The chunk's lineage fields (`ChunkLineage`: index, node path, titles, pages, range)."""
    return {name: getattr(chunk, name) for name in ChunkLineage.model_fields}


def to_read(chunk: Chunk, *, include_vector: bool = False) -> ChunkRead:
    return ChunkRead(
        chunk_id=chunk.id,
        doc_id=chunk.document_id,
        text=chunk.text,
        **lineage_of(chunk),
        spans=chunk.spans or [],
        metadata=chunk.metadata_,
        embedded=chunk.embedding is not None,
        vector=[float(x) for x in chunk.embedding]
        if include_vector and chunk.embedding is not None
        else None,
        created_at=chunk.created_at,
        updated_at=chunk.updated_at,
    )


async def embed_or_none(
    session: AsyncSession,
    kb: KnowledgeBase,
    texts: Sequence[str],
    embedder: DocumentEmbedder | None,
) -> tuple[list[list[float] | None], str | None]:
    """The texts' vectors, or none and the reason when the embedder fails.

    As in ingestion (docs/ingestion.md), chunks are then stored without vectors: text search
    finds them, and `POST .../chunks/embed` embeds them once the embedder is back.
    """
    try:
        return await embed_texts(session, kb, texts, embedder), None
    except EmbeddingError as exc:
        logger.warning("knowledge base %s: chunks stored without vectors: %s", kb.name, exc)
        return [None] * len(texts), f"embedding failed: {exc}"


async def upsert_many(
    session: AsyncSession,
    kb: KnowledgeBase,
    items: Sequence[ChunkBulkItem],
    embedder: DocumentEmbedder | None,
    *,
    visible: ColumnElement[bool],
    create_only: bool = False,
    spans: Sequence[list[dict[str, Any]]] | None = None,
) -> ChunkBulkResult:
    """Write all items or none; items without a vector are embedded (or left null).

    The caller writes only where it may read (`visible`): a chunk id held by a chunk of a
    document it cannot read is "in use", and a document reference naming such a document is
    refused. Ids are unique within the knowledge base: other knowledge bases are not looked at.
    `create_only`: any id already held is in use.
    `spans`: per item, the merged sections it covers (an import's; the chunk API has none).
    """
    ids = [item.chunk_id for item in items if item.chunk_id is not None]
    if len(ids) != len(set(ids)):
        raise ValidationFailed("The same chunk_id appears more than once in the request.")
    supplied = supplied_vectors(kb, items)
    # Before anything is written: while a remote embedder answers (or times out), the request's
    # transaction holds no lock that other writers would wait on.
    to_embed = [position for position, item in enumerate(items) if item.vector is None]
    # What the model reads for each chunk, as ingestion embeds its chunks: the reuse key.
    header = wants_context_header(kb.chunking)
    inputs = [
        embedding_input(
            item.text, title=item.doc_title, section_titles=item.section_titles, header=header
        )
        for item in items
    ]
    vectors, embedding_error = await embed_or_none(
        session, kb, [inputs[p] for p in to_embed], embedder
    )
    computed = dict(zip(to_embed, vectors, strict=True))
    titles = {item.doc_id: item.doc_title for item in items if item.doc_title}
    # Documents first, then chunks: the order a document's DELETE locks them in.
    documents, created = await repository.resolve_documents(
        session, kb, [item.doc_id for item in items], titles, visible=visible
    )
    if ids and await repository.held(session, kb, ids, unless=None if create_only else visible):
        raise ChunkIdInUse(CHUNK_ID_IN_USE)
    rows = (
        ChunkRow(
            id=item.chunk_id or uuid.uuid4(),
            document_id=documents[item.doc_id],
            chunk_index=item.chunk_index,
            text=item.text,
            text_sha256=text_sha256(inputs[position]),
            node_path=item.node_path,
            depth=item.depth,
            leaf_node_id=item.leaf_node_id,
            section_titles=item.section_titles,
            doc_title=item.doc_title,
            page_start=item.page_start,
            page_end=item.page_end,
            start_offset=item.start_offset,
            end_offset=item.end_offset,
            metadata=item.metadata,
            own_metadata=bool(item.metadata),
            embedding=supplied[position] if position in supplied else computed[position],
            # A client's vector is stored for this chunk but never reused for another.
            embedding_computed=position not in supplied,
            spans=(spans[position] or None) if spans is not None else None,
        )
        for position, item in enumerate(items)
    )
    if ids:
        written = list(rows)
        previous = await copy_rows.upsert_rows(session, kb, written)
        # The documents the chunks left count them no more.
        await repository.refresh_document_counts(
            session, kb, [*previous, *(row.document_id for row in written)]
        )
    else:
        # Ids generated here cannot exist yet: no staging table, no upsert, no recount. The
        # rows are made while the COPY streams them (nothing in making them can fail now).
        written = await copy_rows.insert_rows(session, kb, rows)
        await repository.add_document_counts(session, kb, written)
    # A document the chunk API made is ready at once: followers of the feed learn of it as of
    # an uploaded one (its counts are final now).
    for document in await documents_repository.by_ids(session, created):
        events.document_event(session, document, "document.ready", replaced=None)
    return ChunkBulkResult(
        count=len(written),
        chunk_ids=[row.id for row in written],
        embedded=sum(row.embedding is not None for row in written),
        embedding_error=embedding_error,
    )


async def get_or_none(
    session: AsyncSession, kb: KnowledgeBase, chunk_id: uuid.UUID
) -> Chunk | None:
    return await repository.get(session, kb, chunk_id)


async def get_fresh(session: AsyncSession, kb: KnowledgeBase, chunk_id: uuid.UUID) -> Chunk:
    """The chunk as stored now (after a raw-SQL upsert the identity map may be stale)."""
    chunk = await get_or_404(session, kb, chunk_id)
    await session.refresh(chunk)
    return chunk


async def get_or_404(
    session: AsyncSession,
    kb: KnowledgeBase,
    chunk_id: uuid.UUID,
    *,
    visible: ColumnElement[bool] | None = None,
) -> Chunk:
    chunk = await repository.get(session, kb, chunk_id, visible=visible)
    if chunk is None:
        raise NotFound(f"No chunk {chunk_id} in knowledge base {kb.name!r}.")
    return chunk


async def list_page(
    session: AsyncSession,
    kb: KnowledgeBase,
    *,
    document_id: uuid.UUID | None,
    embedded: bool | None,
    limit: int,
    cursor: str | None,
    include_vector: bool,
    visible: ColumnElement[bool] | None = None,
    node_id: str | None = None,
    node_range: tuple[int, int] | None = None,
    document_ref: str | None = None,
) -> Page[ChunkRead]:
    """One page of chunks; `document_ref` (an id or external id) is resolved as `{doc}` in
    paths are, and one naming no document the caller can read matches no chunk, as a filter
    on a document field would."""
    if document_ref is not None:
        document = await documents_repository.by_ref(
            session, kb, document_ref, visible=true() if visible is None else visible
        )
        if document is None:
            return Page(items=[], total=0, limit=limit, next_cursor=None)
        document_id = document.id
    after = None
    if cursor is not None:
        doc, index, last = decode_cursor(cursor, arity=3)
        try:
            after = (uuid.UUID(str(doc)), int(index), uuid.UUID(str(last)))
        except (TypeError, ValueError) as exc:
            raise ValidationFailed("The cursor is not valid for this listing.") from exc
    chunks, total = await repository.list_page(
        session,
        kb,
        document_id=document_id,
        embedded=embedded,
        after=after,
        limit=limit + 1,
        visible=visible,
        node_id=node_id,
        node_range=node_range,
    )
    next_cursor = None
    if len(chunks) > limit:
        last_chunk = chunks[limit - 1]
        next_cursor = encode_cursor(
            [str(last_chunk.document_id), last_chunk.chunk_index, str(last_chunk.id)]
        )
    return Page(
        items=[to_read(chunk, include_vector=include_vector) for chunk in chunks[:limit]],
        total=total,
        limit=limit,
        next_cursor=next_cursor,
    )


async def count(session: AsyncSession, kb: KnowledgeBase) -> ChunkCount:
    total, embedded = await repository.counts(session, kb)
    return ChunkCount(count=total, embedded=embedded, not_embedded=total - embedded)


async def delete(
    session: AsyncSession, kb: KnowledgeBase, *, document_id: uuid.UUID | None = None
) -> ChunkDeleteResult:
    deleted, _ = await repository.delete_where(session, kb, document_id=document_id)
    if document_id is None:
        await repository.clear_document_counts(session, kb)
    else:
        await repository.refresh_document_counts(session, kb, [document_id])
    return ChunkDeleteResult(deleted=deleted)
