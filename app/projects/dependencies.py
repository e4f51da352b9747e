"""The project a request acts in (the tenancy issue puts API keys in front of this)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from sqlalchemy import select

from app.db.dependencies import SessionDep
from app.kit.errors import ServiceUnavailable
from app.models import DEFAULT_PROJECT_NAME, Project


async def get_current_project(session: SessionDep) -> Project:
    project = await session.scalar(select(Project).where(Project.name == DEFAULT_PROJECT_NAME))
    if project is None:
        raise ServiceUnavailable("The default project is missing: run the migrations.")
    return project


ProjectDep = Annotated[Project, Depends(get_current_project)]
