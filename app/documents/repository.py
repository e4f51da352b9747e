"""All SQL about documents."""

from __future__ import annotations

import uuid
from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.kit.pagination import after_key
from app.models import Document, KnowledgeBase


async def by_shas(
    session: AsyncSession, kb: KnowledgeBase, shas: Collection[str], *, visible: ColumnElement[bool]
) -> dict[str, list[Document]]:
    """The knowledge base's documents (not failed) with these contents, oldest first per sha."""
    found: dict[str, list[Document]] = {}
    if not shas:
        return found
    rows = await session.scalars(
        select(Document)
        .where(
            Document.knowledge_base_id == kb.id,
            Document.content_sha256.in_(list(shas)),
            Document.status != "failed",
            visible,
        )
        .order_by(Document.created_at)
    )
    for document in rows:
        found.setdefault(document.content_sha256 or "", []).append(document)
    return found


async def by_external_ids(
    session: AsyncSession,
    kb: KnowledgeBase,
    external_ids: Collection[str],
    *,
    visible: ColumnElement[bool],
    for_update: bool = False,
) -> dict[str, Document]:
    if not external_ids:
        return {}
    query = select(Document).where(
        Document.knowledge_base_id == kb.id,
        Document.external_id.in_(list(external_ids)),
        visible,
    )
    if for_update:
        query = query.with_for_update()
    return {document.external_id or "": document for document in await session.scalars(query)}


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
