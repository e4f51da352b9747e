"""All SQL about knowledge bases."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import BindParameter, ColumnElement, bindparam, func, or_, select, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import QueryableAttribute

from app.kit.pagination import after_key
from app.kit.refs import as_id
from app.models import KnowledgeBase, KnowledgeBaseTally


def _counts(
    knowledge_base_id: QueryableAttribute[uuid.UUID] | BindParameter[uuid.UUID],
) -> tuple[ColumnElement[int], ColumnElement[int]]:
    """A knowledge base's document and chunk counts: the sums of its tally slots (at most 32
    rows), which triggers keep (migration 0032), instead of a scan of all its rows."""

    def tallied(column: QueryableAttribute[int]) -> ColumnElement[int]:
        return (
            select(func.coalesce(func.sum(column), 0))
            .where(KnowledgeBaseTally.knowledge_base_id == knowledge_base_id)
            .scalar_subquery()
        )

    return (
        tallied(KnowledgeBaseTally.documents).label("document_count"),
        tallied(KnowledgeBaseTally.chunks).label("chunk_count"),
    )


# Every request that names a knowledge base runs one of these: built once, so that neither the
# statement nor its cache key is built again per request (about a fifth of a simple read's CPU).
_IN_PROJECT = KnowledgeBase.project_id == bindparam("project_id")
_BY_NAME = select(KnowledgeBase).where(_IN_PROJECT, KnowledgeBase.name == bindparam("name"))
_BY_ID_OR_NAME = select(KnowledgeBase).where(
    _IN_PROJECT,
    or_(KnowledgeBase.id == bindparam("id"), KnowledgeBase.name == bindparam("name")),
)
_LOCKED = {query: query.with_for_update() for query in (_BY_NAME, _BY_ID_OR_NAME)}


async def get_by_ref(
    session: AsyncSession, *, project_id: uuid.UUID, ref: str, for_update: bool = False
) -> KnowledgeBase | None:
    """A knowledge base of the project, by id or by name."""
    as_uuid = as_id(ref)
    query = _BY_NAME if as_uuid is None else _BY_ID_OR_NAME
    params = {"project_id": project_id, "name": ref, "id": as_uuid}
    return await session.scalar(_LOCKED[query] if for_update else query, params)


_COUNTS = select(*_counts(bindparam("kb")))


async def counts(session: AsyncSession, knowledge_base_id: uuid.UUID) -> tuple[int, int]:
    """A knowledge base's document and chunk counts, read through row-level security (the
    caller read the knowledge base, so its tallies are visible)."""
    row = (await session.execute(_COUNTS, {"kb": knowledge_base_id})).one()
    return int(row[0]), int(row[1])


async def chunk_counts(
    session: AsyncSession, knowledge_base_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, int]:
    """Chunks per knowledge base, from the tallies (the N of inverse document frequency)."""
    rows = await session.execute(
        select(KnowledgeBaseTally.knowledge_base_id, func.sum(KnowledgeBaseTally.chunks))
        .where(KnowledgeBaseTally.knowledge_base_id.in_(list(knowledge_base_ids)))
        .group_by(KnowledgeBaseTally.knowledge_base_id)
    )
    counts = {kb_id: int(n) for kb_id, n in rows.all()}
    return {kb_id: counts.get(kb_id, 0) for kb_id in knowledge_base_ids}


async def name_taken(
    session: AsyncSession, *, project_id: uuid.UUID, name: str, exclude: uuid.UUID | None = None
) -> bool:
    query = select(KnowledgeBase.id).where(
        KnowledgeBase.project_id == project_id, KnowledgeBase.name == name
    )
    if exclude is not None:
        query = query.where(KnowledgeBase.id != exclude)
    return (await session.scalar(query)) is not None


async def count(session: AsyncSession, *, project_id: uuid.UUID) -> int:
    total = await session.scalar(
        select(func.count())
        .select_from(KnowledgeBase)
        .where(KnowledgeBase.project_id == project_id)
    )
    return int(total or 0)


async def list_page(
    session: AsyncSession,
    *,
    project_id: uuid.UUID,
    limit: int,
    after: tuple[datetime, uuid.UUID] | None,
) -> list[tuple[KnowledgeBase, int, int]]:
    """Knowledge bases ordered by (created_at, id), strictly after the given key."""
    query = select(KnowledgeBase, *_counts(KnowledgeBase.id)).where(
        KnowledgeBase.project_id == project_id
    )
    query = query.where(after_key((KnowledgeBase.created_at, KnowledgeBase.id), after))
    query = query.order_by(KnowledgeBase.created_at, KnowledgeBase.id).limit(limit)
    return [(row[0], row[1], row[2]) for row in (await session.execute(query)).all()]


async def text_search_config_exists(session: AsyncSession, name: str) -> bool:
    """Whether Postgres knows a text search configuration of that name."""
    found = await session.scalar(
        text("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_ts_config WHERE cfgname = :name)"),
        {"name": name},
    )
    return bool(found)
