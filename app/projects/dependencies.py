"""The project a request acts in: the caller's (from its key, or X-Arbor-Project for admins)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Path, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.dependencies import CallerDep
from app.db.engine import Database
from app.models import Project
from app.projects import service


async def get_current_project(caller: CallerDep) -> Project:
    return caller.project


ProjectDep = Annotated[Project, Depends(get_current_project)]

ProjectRef = Annotated[
    str, Path(min_length=1, max_length=64, description="The project's id or name.")
]


def _database(request: Request) -> Database:
    database: Database = request.app.state.database
    return database


async def get_instance_session(request: Request, _caller: CallerDep) -> AsyncIterator[AsyncSession]:
    """An unscoped session for instance administration, opened only for an authenticated caller."""
    async with _database(request).transaction() as session:
        yield session


InstanceSessionDep = Annotated[AsyncSession, Depends(get_instance_session)]


async def get_managed_project(project: ProjectRef, request: Request, caller: CallerDep) -> Project:
    """The project in the path, when the caller administers it; 404 otherwise."""
    async with _database(request).transaction() as session:
        found = await service.managed_project(session, caller, project)
    request.state.audit_project_id = found.id
    return found


ManagedProjectDep = Annotated[Project, Depends(get_managed_project)]


async def get_managed_session(
    request: Request, project: ManagedProjectDep
) -> AsyncIterator[AsyncSession]:
    """A session scoped to the managed project (row-level security on its keys)."""
    async with _database(request).transaction(project_id=project.id) as session:
        yield session


ManagedSessionDep = Annotated[AsyncSession, Depends(get_managed_session)]
