"""All SQL about documents."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.kit.pagination import after_key
from app.models import Document, KnowledgeBase


async def by_sha(
    session: AsyncSession, kb: KnowledgeBase, sha: str, *, visible: ColumnElement[bool]
) -> list[Document]:
    rows = await session.scalars(
        select(Document)
        .where(
            Document.knowledge_base_id == kb.id,
            Document.content_sha256 == sha,
            Document.status != "failed",
            visible,
        )
        .order_by(Document.created_at)
    )
    return list(rows.all())


async def by_external_id(
    session: AsyncSession,
    kb: KnowledgeBase,
    external_id: str,
    *,
    visible: ColumnElement[bool],
    for_update: bool = False,
) -> Document | None:
    query = select(Document).where(
        Document.knowledge_base_id == kb.id, Document.external_id == external_id, visible
    )
    if for_update:
        query = query.with_for_update()
    return await session.scalar(query)


async def list_page(
    session: AsyncSession,
    kb: KnowledgeBase,
    *,
    status: str | None,
    metadata: dict[str, Any] | None,
    visible: ColumnElement[bool],
    after: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> tuple[list[Document], int]:
    conditions = [Document.knowledge_base_id == kb.id, visible]
    if status is not None:
        conditions.append(Document.status == status)
    if metadata:
        conditions.append(Document.metadata_.contains(metadata))
    query = select(Document).where(*conditions)
    query = query.where(after_key((Document.created_at, Document.id), after))
    rows = await session.scalars(query.order_by(Document.created_at, Document.id).limit(limit))
    total = await session.scalar(select(func.count()).select_from(Document).where(*conditions))
    return list(rows.all()), int(total or 0)
