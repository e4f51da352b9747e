"""Row-level security from the service's side: scope a transaction to one project.

A scoped transaction runs as the role `arbor_app` (it cannot bypass row-level security) with
`arbor.project_id` (and, for a key limited to some knowledge bases, `arbor.knowledge_bases`)
set for that transaction only, so the policies of migration 0004 hide every other project's
rows even from a query that forgets its filter. The settings are bound parameters of
`set_config`, never spliced into SQL.

This is defence in depth against forgotten filters, not a sandbox: the connection's login role
may switch back (`elevated` does, for DDL), so SQL injection would not be contained by it.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, PendingRollbackError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

APP_ROLE = "arbor_app"
# The schema of the tenant views (`chunks`, migration 0004; the graph tables, 0026) that
# search and graph reads use instead of the tables (see below on why).
SEARCH_SCHEMA = "arbor_tenant"
_SCOPE_KEY = "arbor_scope"

_ENTER = text(
    "SELECT set_config('role', :role, true), set_config('arbor.project_id', :project, true), "
    "set_config('arbor.knowledge_bases', :knowledge_bases, true)"
)
_SET_ROLE = text("SELECT set_config('role', :role, true)")
_SEARCH_PATH = text("SELECT set_config('search_path', :path, true)")


@dataclass(frozen=True, slots=True)
class TenantScope:
    """The project (and knowledge bases, None for all) a transaction may see."""

    project_id: uuid.UUID
    knowledge_bases: frozenset[uuid.UUID] | None = None


_ambient: ContextVar[TenantScope | None] = ContextVar("arbor_scope", default=None)


@contextmanager
def acting_for(project_id: uuid.UUID) -> Iterator[None]:
    """Scope every transaction opened inside the block (in this task) to the project.

    The job worker runs each job's handler in one, so a handler's transactions see only its
    job's project without every call site repeating it.
    """
    token = _ambient.set(TenantScope(project_id))
    try:
        yield
    finally:
        _ambient.reset(token)


def ambient_scope() -> TenantScope | None:
    return _ambient.get()


async def enter_scope(session: AsyncSession, scope: TenantScope) -> None:
    """Switch the session's current transaction to the app role and the scope's project."""
    kbs = "" if scope.knowledge_bases is None else ",".join(sorted(map(str, scope.knowledge_bases)))
    if scope.knowledge_bases is not None and not kbs:
        # An empty list must mean "none", not "all": a UUID no knowledge base has.
        kbs = str(uuid.UUID(int=0))
    await session.execute(
        _ENTER, {"role": APP_ROLE, "project": str(scope.project_id), "knowledge_bases": kbs}
    )
    session.info[_SCOPE_KEY] = scope


def scope_of(session: AsyncSession | Session) -> TenantScope | None:
    """The scope of the session's transaction; None for the service's own unscoped work."""
    found = session.info.get(_SCOPE_KEY)
    return found if isinstance(found, TenantScope) else None


@asynccontextmanager
async def elevated(session: AsyncSession) -> AsyncIterator[None]:
    """Run a block as the schema owner (DDL such as a knowledge base's vector index)."""
    if scope_of(session) is None:
        yield
        return
    await session.execute(_SET_ROLE, {"role": "none"})
    try:
        yield
    except BaseException:
        # A statement in the block failed: the transaction is aborted, so resetting the role
        # fails too, and that error hid the one that aborted it (a COPY's, in an ingestion
        # job's log). The rollback that follows ends the role with the transaction.
        # A block that discarded its connection (a failed COPY) leaves the session to roll
        # back first (PendingRollbackError).
        with contextlib.suppress(DBAPIError, PendingRollbackError):
            await session.execute(_SET_ROLE, {"role": APP_ROLE})
        raise
    await session.execute(_SET_ROLE, {"role": APP_ROLE})


async def read_through_tenant_views(session: AsyncSession) -> None:
    """For the rest of the transaction, unqualified `chunks` and `graph_*` are the project's
    tenant views (migrations 0004 and 0026).

    Under row-level security Postgres will not use a GIN index for `@@`, `ILIKE`, `%` or `<%`
    (they are not leakproof); the views apply the same project condition as an ordinary WHERE
    clause. Only for scoped (app role) transactions: the owner reads the tables themselves.
    The app role may only SELECT from the views, so a later write in the transaction that
    resolved to one fails rather than skipping the policies' checks.
    """
    path = search_path_for(session)
    if path is not None:
        await session.execute(_SEARCH_PATH, {"path": path})


def search_path_for(session: AsyncSession) -> str | None:
    """The search_path that reads chunks through the search view (see above); None unscoped."""
    return f"{SEARCH_SCHEMA}, public" if scope_of(session) is not None else None
