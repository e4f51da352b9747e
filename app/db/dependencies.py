"""FastAPI dependencies for the database: one session per request, committed once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.dependencies import CallerDep
from app.db.consistency import replica_read
from app.db.engine import Database
from app.kit.endpoints import EndpointFlag

__all__ = [
    "DatabaseDep",
    "SessionDep",
    "get_database",
    "get_session",
    "one_snapshot",
    "replica_read",
]

# A route whose request reads in one snapshot (`Database.transaction`): its statements, and
# its dependencies' before them, all see the same committed state.
one_snapshot = EndpointFlag("one_snapshot")


def get_database(request: Request) -> Database:
    database: Database = request.app.state.database
    return database


async def get_session(request: Request, caller: CallerDep) -> AsyncIterator[AsyncSession]:
    """The request's session: committed when the handler returns, rolled back if it raised.

    Scoped to the caller's project (and its key's knowledge bases) by row-level security. A
    route marked `replica_read` only reads: with read replicas its session may run on one.
    """
    async with get_database(request).transaction(
        project_id=caller.project.id,
        knowledge_bases=caller.knowledge_bases,
        one_snapshot=one_snapshot.marks(request.scope),
        read_only=replica_read.marks(request.scope),
    ) as session:
        yield session


# "function": the transaction commits when the handler returns, before the response is sent.
# FastAPI's default ends a yield dependency after sending, so a client could read before its
# own write committed (seen: a chunk just PUT answering 404 to the next GET, a name just freed
# by DELETE still taken), and a commit that failed came after a success had been answered.
SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]
DatabaseDep = Annotated[Database, Depends(get_database)]
