"""Rules about projects and API keys: who may manage what, and what a new key may hold."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.auth import keys
from app.auth.callers import Caller, Scope
from app.auth.service import is_active
from app.kit.errors import Conflict, Forbidden, NotFound, ValidationFailed
from app.kit.pagination import Page, decode_time_cursor, encode_time_cursor
from app.models import ApiKey, Project
from app.projects import repository
from app.projects.schemas import (
    ApiKeyCreate,
    ApiKeyCreated,
    ApiKeyRead,
    ProjectCreate,
    ProjectRead,
)


def to_read(project: Project) -> ProjectRead:
    return ProjectRead(
        id=project.id,
        name=project.name,
        description=project.description,
        created_at=project.created_at,
    )


def key_to_read(key: ApiKey, *, now: datetime | None = None) -> ApiKeyRead:
    now = now or datetime.now(UTC)
    if key.revoked_at is not None:
        status = "revoked"
    elif not is_active(key, now):
        status = "expired"
    else:
        status = "active"
    return ApiKeyRead(
        id=key.id,
        project_id=key.project_id,
        name=key.name,
        prefix=key.prefix,
        scopes=[Scope(s) for s in key.scopes],
        knowledge_bases=key.knowledge_base_ids,
        principals=key.principals,
        delegate=key.delegate,
        expires_at=key.expires_at,
        revoked_at=key.revoked_at,
        status=status,
        created_by=key.created_by,
        created_at=key.created_at,
    )


async def create_project(session: AsyncSession, caller: Caller, data: ProjectCreate) -> ProjectRead:
    if not caller.instance_admin:
        raise Forbidden("Only admins of the 'default' project create projects.")
    if await repository.project_name_taken(session, data.name):
        raise Conflict(f"A project named {data.name!r} already exists.")
    project = Project(id=uuid.uuid4(), name=data.name, description=data.description)
    session.add(project)
    await session.flush()
    await session.refresh(project)
    return to_read(project)


async def list_projects(
    session: AsyncSession, caller: Caller, *, limit: int, cursor: str | None
) -> Page[ProjectRead]:
    """Every project for instance admins; a project's own admins see only theirs."""
    only = None if caller.instance_admin else caller.project.id
    rows, total = await repository.list_projects(
        session, only=only, after=decode_time_cursor(cursor), limit=limit + 1
    )
    items = [to_read(p) for p in rows[:limit]]
    next_cursor = (
        encode_time_cursor(items[-1].created_at, items[-1].id) if len(rows) > limit else None
    )
    return Page(items=items, total=total, limit=limit, next_cursor=next_cursor)


async def managed_project(session: AsyncSession, caller: Caller, ref: str) -> Project:
    """The project named in the path, if the caller administers it (404 otherwise)."""
    project = await repository.get_project(session, ref)
    if project is None or not (caller.instance_admin or project.id == caller.project.id):
        raise NotFound(f"No project {ref!r}.")
    return project


async def create_key(
    session: AsyncSession, caller: Caller, project: Project, data: ApiKeyCreate
) -> ApiKeyCreated:
    scopes = sorted(set(data.scopes), key=list(Scope).index)
    if Scope.ADMIN in scopes and (data.knowledge_bases is not None or data.principals):
        raise ValidationFailed(
            "Admin keys manage the whole project: they take no knowledge-base limit and no "
            "principals (they read every document)."
        )
    if data.expires_at is not None and data.expires_at <= datetime.now(UTC):
        raise ValidationFailed("`expires_at` is in the past.")
    knowledge_base_ids = None
    if data.knowledge_bases is not None:
        found = await repository.knowledge_base_ids(
            session, project_id=project.id, refs=data.knowledge_bases
        )
        missing = [ref for ref in data.knowledge_bases if ref not in found]
        if missing:
            raise ValidationFailed(
                f"No knowledge base {', '.join(map(repr, missing))} in project {project.name!r}."
            )
        knowledge_base_ids = list(dict.fromkeys(found.values()))
    secret, prefix = keys.generate()
    key = ApiKey(
        id=uuid.uuid4(),
        project_id=project.id,
        name=data.name,
        prefix=prefix,
        key_sha256=keys.digest(secret),
        scopes=[s.value for s in scopes],
        knowledge_base_ids=knowledge_base_ids,
        principals=sorted(set(data.principals)),
        delegate=data.delegate,
        expires_at=data.expires_at,
        created_by=caller.actor,
    )
    session.add(key)
    await session.flush()
    await session.refresh(key)
    return ApiKeyCreated(**key_to_read(key).model_dump(), key=secret)


async def list_keys(
    session: AsyncSession, project: Project, *, limit: int, cursor: str | None
) -> Page[ApiKeyRead]:
    rows, total = await repository.list_keys(
        session, project_id=project.id, after=decode_time_cursor(cursor), limit=limit + 1
    )
    now = datetime.now(UTC)
    items = [key_to_read(k, now=now) for k in rows[:limit]]
    next_cursor = (
        encode_time_cursor(items[-1].created_at, items[-1].id) if len(rows) > limit else None
    )
    return Page(items=items, total=total, limit=limit, next_cursor=next_cursor)


async def revoke_key(session: AsyncSession, project: Project, key_id: uuid.UUID) -> None:
    key = await repository.get_key(session, project_id=project.id, key_id=key_id)
    if key is None:
        raise NotFound(f"No API key {key_id} in project {project.name!r}.")
    await repository.revoke_key(session, key)
