"""Rules about webhooks: who they deliver to, what they deliver, and their secrets."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import func
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.events.schemas import EventType
from app.kit.errors import NotFound, ValidationFailed
from app.kit.pagination import Page, decode_time_cursor, encode_cursor, encode_time_cursor
from app.knowledge_bases import repository as knowledge_bases
from app.models import Webhook
from app.webhooks import repository, signing
from app.webhooks.destinations import destination_problem
from app.webhooks.schemas import WebhookCreate, WebhookRead, WebhookUpdate, WebhookWithSecret


def to_read(webhook: Webhook) -> WebhookRead:
    # Validated: `types` are stored as text.
    return WebhookRead.model_validate(
        {
            "id": webhook.id,
            "url": webhook.url,
            "types": webhook.types,
            "knowledge_base_id": webhook.knowledge_base_id,
            "description": webhook.description,
            "active": webhook.active,
            "created_at": webhook.created_at,
            "updated_at": webhook.updated_at,
            "cursor": encode_cursor([webhook.cursor_txid, webhook.cursor_id]),
            "last_event_id": webhook.last_event_id,
            "delivered_at": webhook.delivered_at,
            "attempts": webhook.attempts,
            "next_attempt_at": webhook.next_attempt_at,
            "failing_since": webhook.failing_since,
            "last_status": webhook.last_status,
            "last_error": webhook.last_error,
        }
    )


def with_secret(webhook: Webhook) -> WebhookWithSecret:
    return WebhookWithSecret(**to_read(webhook).model_dump(), secret=webhook.secret)


async def _check_destination(url: str, settings: Settings) -> None:
    reason = await destination_problem(url, settings)
    if reason is not None:
        raise ValidationFailed(f"The webhook URL {reason}.")


async def create(
    session: AsyncSession, settings: Settings, *, project_id: uuid.UUID, data: WebhookCreate
) -> WebhookWithSecret:
    await _check_destination(data.url, settings)
    if data.knowledge_base_id is not None:
        found = await knowledge_bases.get_by_ref(
            session, project_id=project_id, ref=str(data.knowledge_base_id)
        )
        if found is None:
            raise ValidationFailed(f"No knowledge base {data.knowledge_base_id} in this project.")
    webhook = Webhook(
        id=uuid.uuid4(),
        project_id=project_id,
        url=data.url,
        secret=signing.new_secret(),
        types=_types(data.types),
        knowledge_base_id=data.knowledge_base_id,
        description=data.description,
    )
    return with_secret(await repository.create(session, webhook))


def _types(types: list[EventType] | None) -> list[str] | None:
    return None if types is None else list(dict.fromkeys(types))


async def get_or_404(
    session: AsyncSession, *, project_id: uuid.UUID, webhook_id: uuid.UUID
) -> Webhook:
    webhook = await repository.get(session, project_id=project_id, webhook_id=webhook_id)
    if webhook is None:
        raise NotFound(f"No webhook {webhook_id}.")
    return webhook


async def list_page(
    session: AsyncSession, *, project_id: uuid.UUID, limit: int, cursor: str | None
) -> Page[WebhookRead]:
    rows, total = await repository.list_page(
        session, project_id=project_id, after=decode_time_cursor(cursor), limit=limit + 1
    )
    items = [to_read(webhook) for webhook in rows[:limit]]
    next_cursor = (
        encode_time_cursor(items[-1].created_at, items[-1].id) if len(rows) > limit else None
    )
    return Page(items=items, total=total, limit=limit, next_cursor=next_cursor)


async def update(
    session: AsyncSession, settings: Settings, webhook: Webhook, data: WebhookUpdate
) -> WebhookRead:
    values: dict[str, Any] = {}
    if data.url is not None:
        await _check_destination(data.url, settings)
        values["url"] = data.url
    if "types" in data.model_fields_set:
        values["types"] = _types(data.types)  # null is a value here: every type
    if data.description is not None:
        values["description"] = data.description
    if data.active is not None:
        values["active"] = data.active
    if data.active or (data.url is not None and data.url != webhook.url):
        # Turned on again, or pointed elsewhere: try at once, and the failing window (which
        # turns a webhook off) starts again rather than ending at the next failure.
        values |= {"attempts": 0, "failing_since": None, "next_attempt_at": func.now()}
    if not values:
        return to_read(webhook)
    return to_read(await repository.change(session, webhook, values))


async def rotate_secret(session: AsyncSession, webhook: Webhook) -> WebhookWithSecret:
    """A new secret; deliveries claimed from now on sign with it (no overlap period)."""
    return with_secret(await repository.change(session, webhook, {"secret": signing.new_secret()}))


async def delete(session: AsyncSession, webhook: Webhook) -> None:
    await repository.delete(session, webhook)
