"""FastAPI dependencies for the database: one session per request, committed once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.dependencies import CallerDep
from app.db.engine import Database


def get_database(request: Request) -> Database:
    database: Database = request.app.state.database
    return database


async def get_session(request: Request, caller: CallerDep) -> AsyncIterator[AsyncSession]:
    """The request's session: committed when the handler returns, rolled back if it raised.

    Scoped to the caller's project (and its key's knowledge bases) by row-level security.
    """
    async with get_database(request).transaction(
        project_id=caller.project.id, knowledge_bases=caller.knowledge_bases
    ) as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]
DatabaseDep = Annotated[Database, Depends(get_database)]
