"""All SQL about knowledge sources, their items and their runs."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, or_, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.kit.pagination import after_key
from app.models import Source, SourceItem, SourceRun

ACTIVE = ("queued", "running")


async def by_ref(
    session: AsyncSession, knowledge_base_id: uuid.UUID, ref: str, *, for_update: bool = False
) -> Source | None:
    """A source of the knowledge base by id or by name."""
    condition = Source.name == ref
    with contextlib.suppress(ValueError):
        condition = or_(condition, Source.id == uuid.UUID(ref))
    query = select(Source).where(Source.knowledge_base_id == knowledge_base_id, condition)
    if for_update:
        query = query.with_for_update()
    return (await session.scalars(query)).first()


async def list_page(
    session: AsyncSession,
    knowledge_base_id: uuid.UUID,
    *,
    after: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> tuple[list[Source], int]:
    condition = Source.knowledge_base_id == knowledge_base_id
    rows = await session.scalars(
        select(Source)
        .where(condition, after_key((Source.created_at, Source.id), after))
        .order_by(Source.created_at, Source.id)
        .limit(limit)
    )
    total = await session.scalar(select(func.count()).select_from(Source).where(condition))
    return list(rows.all()), int(total or 0)


async def change(session: AsyncSession, source: Source, values: dict[str, Any]) -> None:
    await session.execute(
        update(Source)
        .where(Source.id == source.id)
        .values(**values, updated_at=func.now())
        .execution_options(synchronize_session=False)
    )
    await session.refresh(source)


async def items(session: AsyncSession, source_id: uuid.UUID) -> list[SourceItem]:
    rows = await session.scalars(select(SourceItem).where(SourceItem.source_id == source_id))
    return list(rows.all())


async def items_by_keys(
    session: AsyncSession, source_id: uuid.UUID, keys: Collection[str]
) -> dict[str, SourceItem]:
    rows = await session.scalars(
        select(SourceItem).where(SourceItem.source_id == source_id, SourceItem.item_key.in_(keys))
    )
    return {row.item_key: row for row in rows}


async def upsert_items(session: AsyncSession, rows: Sequence[dict[str, Any]]) -> None:
    """Rows of `source_items` (source_id, item_key, project_id, version, content_sha256,
    run_id), written or overwritten."""
    if not rows:
        return
    statement = insert(SourceItem).values(list(rows))
    await session.execute(
        statement.on_conflict_do_update(
            index_elements=[SourceItem.source_id, SourceItem.item_key, SourceItem.project_id],
            set_={
                "version": statement.excluded.version,
                "content_sha256": statement.excluded.content_sha256,
                "run_id": statement.excluded.run_id,
                "updated_at": func.now(),
            },
        )
    )


async def delete_items(session: AsyncSession, source_id: uuid.UUID, keys: Collection[str]) -> None:
    if keys:
        await session.execute(
            delete(SourceItem).where(
                SourceItem.source_id == source_id, SourceItem.item_key.in_(list(keys))
            )
        )


async def active_run(session: AsyncSession, source_id: uuid.UUID) -> SourceRun | None:
    return (
        await session.scalars(
            select(SourceRun).where(
                SourceRun.source_id == source_id,
                SourceRun.status.in_(ACTIVE),
                SourceRun.dry_run.is_(False),
            )
        )
    ).first()


async def runs_page(
    session: AsyncSession,
    source_id: uuid.UUID,
    *,
    before: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> tuple[list[SourceRun], int]:
    """Newest first."""
    condition = SourceRun.source_id == source_id
    rows = await session.scalars(
        select(SourceRun)
        .where(condition, after_key((SourceRun.created_at, SourceRun.id), before, descending=True))
        .order_by(SourceRun.created_at.desc(), SourceRun.id.desc())
        .limit(limit)
    )
    total = await session.scalar(select(func.count()).select_from(SourceRun).where(condition))
    return list(rows.all()), int(total or 0)


# Due scheduled sources without a run under way, oldest due first, while fewer than :capacity
# non-dry runs are under way in the whole instance. Locked so that two processes polling at
# once do not both start one.
DUE_SQL = text(
    "SELECT s.id FROM sources s WHERE s.next_run_at <= now() AND NOT EXISTS ("
    " SELECT 1 FROM source_runs r WHERE r.source_id = s.id AND r.status IN ('queued', 'running')"
    " AND NOT r.dry_run) "
    "ORDER BY s.next_run_at LIMIT greatest(:capacity - (SELECT count(*) FROM source_runs"
    " WHERE status IN ('queued', 'running') AND NOT dry_run), 0) "
    "FOR UPDATE OF s SKIP LOCKED"
)


async def due_sources(session: AsyncSession, *, capacity: int) -> list[Source]:
    ids = list(await session.scalars(DUE_SQL, {"capacity": capacity}))
    if not ids:
        return []
    rows = await session.scalars(select(Source).where(Source.id.in_(ids)))
    return list(rows.all())
