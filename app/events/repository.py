"""All SQL about events."""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import ColumnElement, delete, func, literal, null, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.kit.pagination import after_key
from app.models import Event
from app.models.events import Xid8

Position = tuple[int, int]  # (txid, id): the feed's order


def add(
    session: AsyncSession,
    *,
    project_id: uuid.UUID,
    knowledge_base_id: uuid.UUID,
    type_: str,
    subject_id: uuid.UUID,
    data: dict[str, Any],
    access: dict[str, Any] | None = None,
) -> None:
    """Queue the event with the transaction's other writes: it exists if they commit."""
    event = Event(
        project_id=project_id,
        knowledge_base_id=knowledge_base_id,
        type=type_,
        subject_id=subject_id,
        data=data,
    )
    if access is not None:
        event.access = access  # left unset otherwise: SQL NULL, not JSON null
    session.add(event)


async def set_document_access(
    session: AsyncSession,
    *,
    knowledge_base_id: uuid.UUID,
    document_id: uuid.UUID,
    access: dict[str, Any] | None,
) -> None:
    """Give the document's events its new access list: who may read the document is who may
    read what happened to it (`ix_events_kb_subject`, migration 0015)."""
    await session.execute(
        update(Event)
        .where(
            Event.knowledge_base_id == knowledge_base_id,
            Event.subject_id == document_id,
            Event.type.startswith("document."),
        )
        .values(access=null() if access is None else access)
        .execution_options(synchronize_session=False)
    )


def settled() -> ColumnElement[bool]:
    """Events older than every running transaction: no event can commit before them any more."""
    return Event.txid < func.pg_snapshot_xmin(func.pg_current_snapshot())


async def horizon(session: AsyncSession) -> Position:
    """The feed's end now: every event before this position is settled, none after it is."""
    xmin = await session.scalar(
        select(func.pg_snapshot_xmin(func.pg_current_snapshot(), type_=Xid8()))
    )
    assert xmin is not None  # a snapshot always has an xmin
    return xmin, 0


async def page(
    session: AsyncSession,
    *,
    after: Position | None,
    types: Collection[str],
    knowledge_base_id: uuid.UUID | None,
    visible: ColumnElement[bool],
    limit: int,
) -> list[Event]:
    """Events past `after` in feed order, only those no running transaction can precede."""
    conditions = [settled(), visible]
    if after is not None:
        position = (literal(after[0], Xid8()), after[1])
        conditions.append(after_key((Event.txid, Event.id), position))
    if types:
        conditions.append(Event.type.in_(list(types)))
    if knowledge_base_id is not None:
        conditions.append(Event.knowledge_base_id == knowledge_base_id)
    rows = await session.scalars(
        select(Event).where(*conditions).order_by(Event.txid, Event.id).limit(limit)
    )
    return list(rows.all())


async def prune(session: AsyncSession, *, older_than_days: int) -> int:
    result = await session.execute(
        delete(Event)
        .where(Event.created_at < func.now() - func.make_interval(0, 0, 0, older_than_days))
        .returning(Event.id)
    )
    return len(result.scalars().all())


def positions(events: Sequence[Event]) -> Position | None:
    return (events[-1].txid, events[-1].id) if events else None
