"""The async engine and the per-request session scope."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.config import Settings
from app.db.outage import watch_connections
from app.db.tenancy import TenantScope, ambient_scope, enter_scope
from app.db.urls import async_url
from app.observability.tracing import trace_statements

# A pooled connection idle for longer than this is pinged before it is used again. Not every
# checkout: SQLAlchemy's pre-ping costs three round trips with asyncpg (BEGIN, ";", ROLLBACK)
# on each transaction, more than a short transaction itself. A connection that dies while in
# use fails its request with a disconnect error, which makes SQLAlchemy invalidate the pool,
# so the requests after it get new connections.
PING_IDLE_AFTER_S = 10.0


def ping_idle_connections(engine: AsyncEngine) -> None:
    """Test a connection on checkout when it sat idle; a dead one is replaced transparently."""

    @event.listens_for(engine.sync_engine, "checkin")
    def remember(_dbapi_connection: Any, record: Any) -> None:
        record.info["checked_in_at"] = time.monotonic()

    @event.listens_for(engine.sync_engine, "checkout")
    def ping(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        checked_in_at = record.info.get("checked_in_at")
        if checked_in_at is None or time.monotonic() - checked_in_at < PING_IDLE_AFTER_S:
            return
        try:
            dbapi_connection.ping()
        except Exception as exc:
            # The pool discards this connection and checks out another (three tries).
            raise DisconnectionError(str(exc)) from exc


class Database:
    """Owns the engine and hands out sessions; one per process."""

    def __init__(self, url: str, settings: Settings) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(
            async_url(url),
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_max_overflow,
            connect_args={"timeout": settings.db_connect_timeout_s},
        )
        ping_idle_connections(self.engine)
        watch_connections(self.engine)
        trace_statements(self.engine)
        # Transactions waiting for a pooled connection now (the `arbor_db_pool_waiting` gauge).
        self.waiting = 0
        self.sessionmaker = async_sessionmaker(self.engine, expire_on_commit=False)

    @asynccontextmanager
    async def transaction(
        self,
        *,
        project_id: uuid.UUID | None = None,
        knowledge_bases: Collection[uuid.UUID] | None = None,
        one_snapshot: bool = False,
    ) -> AsyncIterator[AsyncSession]:
        """One session, committed once when the block ends without error, rolled back otherwise.

        With `project_id` the transaction sees only that project's rows (and only the given
        knowledge bases), enforced by row-level security (app/db/tenancy.py); every request
        passes its caller's project, and a job's handler runs inside `acting_for` its project.
        Without either, the transaction is the service's own: the job queue, key lookup,
        project administration.

        `one_snapshot` runs the transaction at REPEATABLE READ: every statement sees the
        database as the first one did, as a read made of several statements must (search
        decides documents first and scores their chunks after; under READ COMMITTED a new
        version committed in between left it with no document to score).
        """
        scope = ambient_scope()
        if project_id is not None:
            kbs = None if knowledge_bases is None else frozenset(knowledge_bases)
            scope = TenantScope(project_id, kbs)
        async with self.sessionmaker() as session, session.begin():
            # The connection is taken here, before any statement, so that the time spent
            # waiting for one is counted (and the isolation level is part of the BEGIN).
            self.waiting += 1
            try:
                await session.connection(
                    execution_options={"isolation_level": "REPEATABLE READ"}
                    if one_snapshot
                    else None
                )
            finally:
                self.waiting -= 1
            if scope is not None:
                await enter_scope(session, scope)
            yield session

    async def dispose(self) -> None:
        await self.engine.dispose()
