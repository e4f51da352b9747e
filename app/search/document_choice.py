"""Which documents a search reads chunks of, decided before its statement: the few that pass a
document filter (their chunks scored exactly), or the few the caller may not read (skipped).

Otherwise every candidate chunk's document is looked up in the statement (`Plan.check_documents`
and `candidates.scope`), a primary-key probe under row-level security per chunk, and text
matching cannot be pruned (`text_statistics`): a caller with an access list paid both, three
times an admin's text search on SciFact (docs/benchmarks.md, "Search over HTTP").
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import True_

from app.kit.errors import ValidationFailed
from app.kit.filters import compile_filter
from app.models import KnowledgeBase
from app.search import fields, repository
from app.search.schemas import SearchOptions


@dataclass(frozen=True, slots=True)
class DocumentChoice:
    # Only these documents' chunks may match (`prefilter_documents`); None: any.
    documents: list[uuid.UUID] | None = None
    # These documents' chunks may not match: hidden from the caller, or failed.
    excluded: Sequence[uuid.UUID] = ()
    # How many chunks `excluded` holds.
    excluded_chunks: int = 0
    # Whether `excluded` settles visibility: no candidate's document need be looked up.
    settled: bool = False


async def choose(
    session: AsyncSession,
    kbs: Sequence[KnowledgeBase],
    options: SearchOptions,
    visible: ColumnElement[bool] | None,
    *,
    total_chunks: Callable[[], Awaitable[int]],
) -> DocumentChoice:
    """The documents a search is limited to or skips, where either is known to be short."""
    restricted = visible is not None and not isinstance(visible, True_)
    if options.filter is None and not restricted:
        return DocumentChoice()
    kb_ids = [kb.id for kb in kbs]
    if options.filter is None:
        assert visible is not None
        # Visibility alone: the documents hidden from the caller (and the failed ones) are
        # usually few, and skipping them needs no look-up per candidate. Where they hold
        # most of the chunks, the few readable documents are chosen instead (below): the
        # HNSW walk would pass over mostly skipped entries.
        hidden = await repository.hidden_documents(session, kbs[0].project_id, kb_ids, visible)
        if hidden is not None and hidden[1] * 2 <= await total_chunks():
            ids, chunks = hidden
            return DocumentChoice(excluded=ids, excluded_chunks=chunks, settled=True)
    chosen = await _chosen_documents(
        session, kbs[0].project_id, kb_ids, options, visible if restricted else None, total_chunks
    )
    return DocumentChoice(documents=chosen)


async def _chosen_documents(
    session: AsyncSession,
    project_id: uuid.UUID,
    kb_ids: list[uuid.UUID],
    options: SearchOptions,
    visible: ColumnElement[bool] | None,
    total_chunks: Callable[[], Awaitable[int]],
) -> list[uuid.UUID] | None:
    """For a filter on document fields (and the caller's document visibility), the documents
    that pass it, if their chunks are few enough to score exactly. Metadata keys count as
    document fields where no chunk of these knowledge bases has metadata of its own (a chunk's
    own is read before its document's); a filter on chunk fields is applied chunk by chunk."""
    try:
        condition = compile_filter(options.filter, fields.DOCUMENT_FIELDS)
    except ValidationFailed:
        try:
            condition = compile_filter(options.filter, fields.DOCUMENT_FIELDS_AND_METADATA)
        except ValidationFailed:
            return None
        if await repository.own_chunk_metadata(session, project_id, kb_ids):
            return None
    if visible is not None:
        condition = and_(condition, visible)
    return await repository.prefilter_documents(
        session,
        project_id,
        kb_ids,
        condition,
        max_chunks=repository.prefilter_limit(await total_chunks()),
    )
