"""SQL of evaluations: rows, listing, and the judged documents a caller can read."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy import ColumnElement, String, and_, cast, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.kit.pagination import TimeKey, after_key
from app.models import Document, Evaluation


async def get(
    session: AsyncSession, kb_id: uuid.UUID, evaluation_id: uuid.UUID
) -> Evaluation | None:
    return await session.scalar(
        select(Evaluation).where(
            Evaluation.id == evaluation_id, Evaluation.knowledge_base_id == kb_id
        )
    )


async def page(
    session: AsyncSession, kb_id: uuid.UUID, *, after: TimeKey | None, limit: int
) -> tuple[list[Evaluation], int]:
    """Newest first."""
    mine = Evaluation.knowledge_base_id == kb_id
    rows = await session.scalars(
        select(Evaluation)
        .where(mine, after_key([Evaluation.created_at, Evaluation.id], after, descending=True))
        .order_by(Evaluation.created_at.desc(), Evaluation.id.desc())
        .limit(limit)
    )
    total = await session.scalar(select(func.count()).select_from(Evaluation).where(mine))
    return list(rows), int(total or 0)


async def resolve_documents(
    session: AsyncSession,
    kb_id: uuid.UUID,
    refs: Sequence[str],
    *,
    visible: ColumnElement[bool],
) -> dict[str, uuid.UUID]:
    """Judged document references (ids or external ids) to the documents they name that the
    evaluation's caller may read; the others are left out."""
    found: dict[str, uuid.UUID] = {}
    wanted = sorted(set(refs))
    for start in range(0, len(wanted), 5000):
        part = wanted[start : start + 5000]
        rows = await session.execute(
            select(Document.id, Document.external_id).where(
                Document.knowledge_base_id == kb_id,
                visible,
                or_(Document.external_id.in_(part), cast(Document.id, String).in_(part)),
            )
        )
        for doc_id, external_id in rows:
            if str(doc_id) in part:
                found[str(doc_id)] = doc_id
            if external_id is not None and external_id in part:
                found[external_id] = doc_id
    return found


async def external_ids(session: AsyncSession, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, str]:
    rows = await session.execute(
        select(Document.id, Document.external_id).where(
            and_(Document.id.in_(list(set(ids))), Document.external_id.is_not(None))
        )
    )
    return {doc_id: str(external_id) for doc_id, external_id in rows}
