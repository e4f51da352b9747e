"""All SQL about audit events."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.kit.pagination import after_key
from app.models import AuditEvent


async def list_page(
    session: AsyncSession,
    *,
    project_id: uuid.UUID,
    operation: str | None,
    before: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> tuple[list[AuditEvent], int]:
    """Events of the project, newest first, strictly before the given key."""
    conditions = [AuditEvent.project_id == project_id]
    if operation is not None:
        conditions.append(AuditEvent.operation == operation)
    query = select(AuditEvent).where(*conditions)
    query = query.where(after_key((AuditEvent.created_at, AuditEvent.id), before, descending=True))
    query = query.order_by(AuditEvent.created_at.desc(), AuditEvent.id.desc()).limit(limit)
    rows = await session.scalars(query)
    total = await session.scalar(select(func.count()).select_from(AuditEvent).where(*conditions))
    return list(rows.all()), int(total or 0)


async def prune(session: AsyncSession, *, older_than_days: int) -> int:
    """Delete events older than the retention (every project: the service's own work)."""
    result = await session.execute(
        delete(AuditEvent).where(
            AuditEvent.created_at < func.now() - func.make_interval(0, 0, 0, older_than_days)
        )
    )
    return int(result.rowcount)  # type: ignore[attr-defined]
