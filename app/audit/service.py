"""Reading audit events, and pruning them past the retention."""

from __future__ import annotations

import logging
import uuid

from sqlalchemy.ext.asyncio import AsyncSession

from app.audit import repository
from app.audit.schemas import AuditEventRead
from app.db.engine import Database
from app.kit.pagination import Page, decode_time_cursor, encode_time_cursor
from app.models import AuditEvent

logger = logging.getLogger(__name__)


def to_read(event: AuditEvent) -> AuditEventRead:
    return AuditEventRead(
        id=event.id,
        created_at=event.created_at,
        actor=event.actor,
        api_key_id=event.api_key_id,
        operation=event.operation,
        method=event.method,
        path=event.path,
        status=event.status,
        target=event.target,
        hits=event.hits,
        details=event.details,
    )


async def list_page(
    session: AsyncSession,
    *,
    project_id: uuid.UUID,
    operation: str | None,
    limit: int,
    cursor: str | None,
) -> Page[AuditEventRead]:
    before = decode_time_cursor(cursor)
    rows, total = await repository.list_page(
        session, project_id=project_id, operation=operation, before=before, limit=limit + 1
    )
    items = [to_read(event) for event in rows[:limit]]
    next_cursor = None
    if len(rows) > limit:
        next_cursor = encode_time_cursor(items[-1].created_at, items[-1].id)
    return Page(items=items, total=total, limit=limit, next_cursor=next_cursor)


async def prune(database: Database, *, retention_days: int) -> int:
    """Delete events past the retention; 0 days keeps everything."""
    if retention_days <= 0:
        return 0
    async with database.transaction() as session:
        deleted = await repository.prune(session, older_than_days=retention_days)
    if deleted:
        logger.info("pruned %d audit events older than %d days", deleted, retention_days)
    return deleted
