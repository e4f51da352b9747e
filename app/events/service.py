"""What happened, written with the change that made it happen; read as a feed.

A document becomes ready or fails in the background, so without events a client polls every
document it uploaded. Events are rows written in the transaction of the change (they exist if
and only if it committed) and read in feed order by `follow`, which can wait for the next ones.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Collection
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.engine import Database
from app.events import repository
from app.events.repository import Position
from app.events.schemas import EventPage, EventRead, EventType
from app.kit.errors import ValidationFailed
from app.kit.pagination import decode_cursor, encode_cursor
from app.models import Document, Event, KnowledgeBase

logger = logging.getLogger(__name__)

POLL_S = 0.25


def document_event(
    session: AsyncSession, document: Document, type_: EventType, **extra: Any
) -> None:
    """Record what happened to a document, as it is now (before a deletion: as it was)."""
    repository.add(
        session,
        project_id=document.project_id,
        knowledge_base_id=document.knowledge_base_id,
        type_=type_,
        subject_id=document.id,
        access=document.access,
        data={
            "id": str(document.id),
            "external_id": document.external_id,
            "title": document.title,
            "source_uri": document.source_uri,
            "status": document.status,
            "error": document.error,
            "chunk_count": document.chunk_count,
            "embedded_count": document.embedded_count,
            "format": document.format,
            "metadata": document.metadata_,
            **extra,
        },
    )


def knowledge_base_event(session: AsyncSession, kb: KnowledgeBase, type_: EventType) -> None:
    repository.add(
        session,
        project_id=kb.project_id,
        knowledge_base_id=kb.id,
        type_=type_,
        subject_id=kb.id,
        data={"id": str(kb.id), "name": kb.name, "title": kb.title},
    )


def source_event(
    session: AsyncSession,
    *,
    project_id: uuid.UUID,
    knowledge_base_id: uuid.UUID,
    source_id: uuid.UUID,
    type_: EventType,
    data: dict[str, Any],
) -> None:
    """A knowledge source's sync ended (app/sources)."""
    repository.add(
        session,
        project_id=project_id,
        knowledge_base_id=knowledge_base_id,
        type_=type_,
        subject_id=source_id,
        data={"id": str(source_id), **data},
    )


def to_read(event: Event) -> EventRead:
    return EventRead.model_validate(
        {
            "id": event.id,
            "type": event.type,
            "created_at": event.created_at,
            "knowledge_base_id": event.knowledge_base_id,
            "subject_id": event.subject_id,
            "data": event.data,
        }
    )


def decode_position(cursor: str | None) -> Position | None:
    if cursor is None:
        return None
    txid, event_id = decode_cursor(cursor, arity=2)
    # Ranges of xid8 (unsigned 64 bits) and of the bigint id: beyond them Postgres would fail.
    valid = (
        isinstance(txid, int)
        and isinstance(event_id, int)
        and 0 <= txid < 2**64
        and 0 <= event_id < 2**63
    )
    if not valid:
        raise ValidationFailed("The cursor is not valid for the event feed.")
    return txid, event_id


async def follow(
    database: Database,
    *,
    project_id: uuid.UUID,
    knowledge_bases: Collection[uuid.UUID] | None,
    visible: Any,
    after: str | None,
    types: Collection[str],
    knowledge_base_id: uuid.UUID | None,
    limit: int,
    wait_s: float,
) -> EventPage:
    """The events past `after`; with `wait_s`, waits up to that long for the first ones.

    Each look is its own short transaction, so a waiting follower holds no connection.
    """
    position = decode_position(after)
    deadline = time.monotonic() + wait_s
    while True:
        async with database.transaction(
            project_id=project_id, knowledge_bases=knowledge_bases
        ) as session:
            events = await repository.page(
                session,
                after=position,
                types=types,
                knowledge_base_id=knowledge_base_id,
                visible=visible,
                limit=limit,
            )
        if events or time.monotonic() >= deadline:
            break
        await asyncio.sleep(POLL_S)
    last = repository.positions(events) or position
    return EventPage(
        items=[to_read(event) for event in events],
        next_cursor=encode_cursor(list(last)) if last is not None else encode_cursor([0, 0]),
    )


async def prune(database: Database, *, retention_days: int) -> int:
    """Delete events past the retention; 0 days keeps everything."""
    if retention_days <= 0:
        return 0
    async with database.transaction() as session:
        deleted = await repository.prune(session, older_than_days=retention_days)
    if deleted:
        logger.info("pruned %d events older than %d days", deleted, retention_days)
    return deleted
