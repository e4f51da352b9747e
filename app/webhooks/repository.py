"""All SQL about webhooks: the resource, and the dispatcher's claims and records."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import and_, exists, func, literal, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.events import repository as events
from app.events.repository import Position
from app.kit.pagination import after_key
from app.models import Event, Webhook
from app.models.events import Xid8


async def create(session: AsyncSession, webhook: Webhook) -> Webhook:
    session.add(webhook)
    await session.flush()
    await session.refresh(webhook)  # the start position and times the database chose
    return webhook


async def get(
    session: AsyncSession, *, project_id: uuid.UUID, webhook_id: uuid.UUID
) -> Webhook | None:
    return await session.scalar(
        select(Webhook).where(Webhook.project_id == project_id, Webhook.id == webhook_id)
    )


async def list_page(
    session: AsyncSession,
    *,
    project_id: uuid.UUID,
    after: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> tuple[list[Webhook], int]:
    conditions = [Webhook.project_id == project_id]
    query = select(Webhook).where(*conditions, after_key((Webhook.created_at, Webhook.id), after))
    rows = await session.scalars(query.order_by(Webhook.created_at, Webhook.id).limit(limit))
    total = await session.scalar(select(func.count()).select_from(Webhook).where(*conditions))
    return list(rows.all()), int(total or 0)


async def change(session: AsyncSession, webhook: Webhook, values: dict[str, Any]) -> Webhook:
    await session.execute(
        update(Webhook)
        .where(Webhook.id == webhook.id)
        .values(**values, updated_at=func.now())
        .execution_options(synchronize_session=False)
    )
    await session.refresh(webhook)
    return webhook


async def delete(session: AsyncSession, webhook: Webhook) -> None:
    await session.delete(webhook)
    await session.flush()


def _position(position: Position) -> tuple[Any, int]:
    return literal(position[0], Xid8()), position[1]


def _cursor_before(position: Position) -> Any:
    """The webhook's cursor is short of `position` (it only ever moves forward)."""
    return after_key((Webhook.cursor_txid, Webhook.cursor_id), _position(position), descending=True)


async def claim(session: AsyncSession, *, limit: int, lease_s: float) -> list[Webhook]:
    """Due, unleased webhooks with a settled event of their project past their cursor, leased
    for `lease_s` so no other dispatcher sends to them meanwhile. Idle ones are not touched."""
    pending = exists().where(
        Event.project_id == Webhook.project_id,
        after_key((Event.txid, Event.id), (Webhook.cursor_txid, Webhook.cursor_id)),
        events.settled(),
    )
    rows = (
        await session.scalars(
            select(Webhook)
            .where(
                Webhook.active,
                Webhook.next_attempt_at <= func.now(),
                or_(Webhook.leased_until.is_(None), Webhook.leased_until <= func.now()),
                pending,
            )
            .order_by(Webhook.next_attempt_at)
            .limit(limit)
            .with_for_update(of=Webhook, skip_locked=True)
        )
    ).all()
    if rows:
        await session.execute(
            update(Webhook)
            .where(Webhook.id.in_([row.id for row in rows]))
            .values(leased_until=func.now() + func.make_interval(0, 0, 0, 0, 0, 0, lease_s))
            .execution_options(synchronize_session=False)
        )
    return list(rows)


async def delivered(
    session: AsyncSession, webhook_id: uuid.UUID, *, position: Position, status: int
) -> Webhook | None:
    """An event was accepted: the cursor passes it and the failure state is cleared. Returns
    the webhook as it is now (None once deleted), for the sender to check it may go on."""
    await session.execute(
        update(Webhook)
        .where(Webhook.id == webhook_id, _cursor_before(position))
        .values(
            cursor_txid=_position(position)[0],
            cursor_id=position[1],
            last_event_id=position[1],
            delivered_at=func.now(),
            attempts=0,
            failing_since=None,
            last_status=status,
            last_error=None,
        )
        .execution_options(synchronize_session=False)
    )
    found: Webhook | None = await session.get(Webhook, webhook_id, populate_existing=True)
    return found


def same_destination(claimed: Webhook, now: Webhook | None) -> bool:
    """Whether deliveries claimed under `claimed` may go on: still there, active, and with
    the address, secret and filters it was claimed with."""
    return (
        now is not None
        and now.active
        and (now.url, now.secret, now.types, now.knowledge_base_id)
        == (claimed.url, claimed.secret, claimed.types, claimed.knowledge_base_id)
    )


async def release(
    session: AsyncSession, webhook_id: uuid.UUID, *, skip_to: Position | None
) -> None:
    """Delivery stopped without a failure: due again at once (the claim checks for events),
    and with `skip_to`, past events its filters left out up to that position."""
    await session.execute(
        update(Webhook)
        .where(Webhook.id == webhook_id)
        .values(next_attempt_at=func.now(), leased_until=None)
        .execution_options(synchronize_session=False)
    )
    if skip_to is not None:
        await session.execute(
            update(Webhook)
            .where(Webhook.id == webhook_id, _cursor_before(skip_to))
            .values(cursor_txid=_position(skip_to)[0], cursor_id=skip_to[1])
            .execution_options(synchronize_session=False)
        )


async def failed(
    session: AsyncSession,
    webhook_id: uuid.UUID,
    *,
    status: int | None,
    error: str,
    delay_s: float,
    disable_after_s: float,
) -> bool | None:
    """An attempt failed: the cursor stays, the next try waits `delay_s`; a webhook failing
    for `disable_after_s` without a break is turned off. Returns whether it is still active
    (None when it was deleted meanwhile)."""
    failing_since = func.coalesce(Webhook.failing_since, func.now())
    cutoff = func.now() - func.make_interval(0, 0, 0, 0, 0, 0, disable_after_s)
    result = await session.execute(
        update(Webhook)
        .where(Webhook.id == webhook_id)
        .values(
            attempts=Webhook.attempts + 1,
            next_attempt_at=func.now() + func.make_interval(0, 0, 0, 0, 0, 0, delay_s),
            leased_until=None,
            failing_since=failing_since,
            last_status=status,
            last_error=error,
            active=and_(Webhook.active, failing_since > cutoff),
        )
        .returning(Webhook.active)
        .execution_options(synchronize_session=False)
    )
    return result.scalar_one_or_none()
