"""All SQL about projects and their API keys."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import ColumnElement, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.kit.pagination import after_key
from app.models import ApiKey, KnowledgeBase, Project


def _ref_clause(ref: str) -> ColumnElement[bool]:
    try:
        as_id = uuid.UUID(ref)
    except ValueError:
        return Project.name == ref
    return or_(Project.id == as_id, Project.name == ref)


async def get_project(session: AsyncSession, ref: str) -> Project | None:
    """A project by id or name."""
    return await session.scalar(select(Project).where(_ref_clause(ref)))


async def project_name_taken(session: AsyncSession, name: str) -> bool:
    return (await session.scalar(select(Project.id).where(Project.name == name))) is not None


async def list_projects(
    session: AsyncSession,
    *,
    only: uuid.UUID | None,
    after: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> tuple[list[Project], int]:
    """Projects by (created_at, id), all of them or only one."""
    conditions = [] if only is None else [Project.id == only]
    query = select(Project).where(*conditions)
    query = query.where(after_key((Project.created_at, Project.id), after))
    rows = await session.scalars(query.order_by(Project.created_at, Project.id).limit(limit))
    total = await session.scalar(select(func.count()).select_from(Project).where(*conditions))
    return list(rows.all()), int(total or 0)


async def key_with_project(session: AsyncSession, prefix: str) -> tuple[ApiKey, Project] | None:
    """The key with this public prefix and its project (the service's own lookup, unscoped)."""
    row = (
        await session.execute(
            select(ApiKey, Project)
            .join(Project, Project.id == ApiKey.project_id)
            .where(ApiKey.prefix == prefix)
        )
    ).one_or_none()
    return None if row is None else (row[0], row[1])


async def get_key(
    session: AsyncSession, *, project_id: uuid.UUID, key_id: uuid.UUID
) -> ApiKey | None:
    return await session.scalar(
        select(ApiKey).where(ApiKey.project_id == project_id, ApiKey.id == key_id)
    )


async def list_keys(
    session: AsyncSession,
    *,
    project_id: uuid.UUID,
    after: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> tuple[list[ApiKey], int]:
    conditions = [ApiKey.project_id == project_id]
    query = select(ApiKey).where(*conditions)
    query = query.where(after_key((ApiKey.created_at, ApiKey.id), after))
    rows = await session.scalars(query.order_by(ApiKey.created_at, ApiKey.id).limit(limit))
    total = await session.scalar(select(func.count()).select_from(ApiKey).where(*conditions))
    return list(rows.all()), int(total or 0)


async def revoke_key(session: AsyncSession, key: ApiKey) -> None:
    if key.revoked_at is None:
        await session.execute(
            update(ApiKey)
            .where(ApiKey.id == key.id)
            .values(revoked_at=func.now(), updated_at=func.now())
        )
        await session.refresh(key)


async def has_active_admin_key(session: AsyncSession, project_id: uuid.UUID) -> bool:
    found = await session.scalar(
        select(ApiKey.id)
        .where(
            ApiKey.project_id == project_id,
            ApiKey.scopes.contains(["admin"]),
            ApiKey.revoked_at.is_(None),
            or_(ApiKey.expires_at.is_(None), ApiKey.expires_at > func.now()),
        )
        .limit(1)
    )
    return found is not None


async def knowledge_base_ids(
    session: AsyncSession, *, project_id: uuid.UUID, refs: list[str]
) -> dict[str, uuid.UUID]:
    """Map knowledge base ids or names of the project to ids (unknown refs are left out)."""
    found: dict[str, uuid.UUID] = {}
    for ref in refs:
        try:
            clause = or_(KnowledgeBase.id == uuid.UUID(ref), KnowledgeBase.name == ref)
        except ValueError:
            clause = KnowledgeBase.name == ref
        kb_id = await session.scalar(
            select(KnowledgeBase.id).where(KnowledgeBase.project_id == project_id, clause)
        )
        if kb_id is not None:
            found[ref] = kb_id
    return found
