"""The async engine and the per-request session scope."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Collection
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.config import Settings
from app.db.consistency import parse_lsn, presented_token
from app.db.outage import is_outage, watch_connections
from app.db.project_criteria import NAMES_PROJECT, name_projects_in_orm_statements
from app.db.replicas import WRITE_POSITION, Replica, ReplicaSet, fetch_row
from app.db.tenancy import TenantScope, ambient_scope, enter_scope
from app.db.type_cache import learn_types_on_connect
from app.db.urls import async_url
from app.observability import metrics
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


def make_engine(url: str, settings: Settings) -> AsyncEngine:
    """A pooled engine with the service's connection handling (pings, types learned at
    connect, outages, tracing)."""
    engine = create_async_engine(
        async_url(url),
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        connect_args={"timeout": settings.db_connect_timeout_s},
    )
    ping_idle_connections(engine)
    learn_types_on_connect(engine)
    watch_connections(engine)
    trace_statements(engine)
    return engine


# Where a read-only transaction's session keeps the Database it came from (`writer_of`).
_READ_ONLY_OF = "arbor_read_only_of"


def writer_of(session: AsyncSession) -> Database | None:
    """The Database whose primary takes a write that `session` cannot (a read-only
    transaction, perhaps on a replica); None when the session writes itself."""
    found = session.info.get(_READ_ONLY_OF)
    return found if isinstance(found, Database) else None


class Database:
    """Owns the engines (the primary's, and each read replica's) and hands out sessions."""

    def __init__(self, url: str, settings: Settings) -> None:
        name_projects_in_orm_statements()
        self.names_project = settings.sql_names_project
        self.url = url
        self.engine: AsyncEngine = make_engine(url, settings)
        # Transactions waiting for a pooled connection now (the `arbor_db_pool_waiting` gauge).
        self.waiting = 0
        self.sessionmaker = async_sessionmaker(self.engine, expire_on_commit=False)
        # Read replicas (docs/scaling.md); None: every transaction runs on the primary.
        self.replicas: ReplicaSet | None = None
        if settings.database_read_urls:
            self.replicas = ReplicaSet(
                settings.database_read_urls,
                max_lag_s=settings.replica_max_lag_s,
                check_s=settings.replica_check_s,
                make_engine=lambda replica_url: make_engine(replica_url, settings),
            )

    @asynccontextmanager
    async def transaction(
        self,
        *,
        project_id: uuid.UUID | None = None,
        knowledge_bases: Collection[uuid.UUID] | None = None,
        one_snapshot: bool = False,
        read_only: bool = False,
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

        `read_only` (with read replicas configured) runs it READ ONLY on a healthy replica that
        has replayed the request's consistency token, else on the primary.
        """
        scope = ambient_scope()
        if project_id is not None:
            kbs = None if knowledge_bases is None else frozenset(knowledge_bases)
            scope = TenantScope(project_id, kbs)
        options: dict[str, Any] = {}
        if one_snapshot:
            options["isolation_level"] = "REPEATABLE READ"
        async with AsyncExitStack() as stack:
            session: AsyncSession | None = None
            if read_only and self.replicas is not None:
                # READ ONLY on the primary too: a route marked as a read that writes fails
                # the same way wherever it runs, not only on a replica.
                options["postgresql_readonly"] = True
                replica = await self.replicas.choose(presented_token())
                if replica is not None:
                    session = await self._on_replica(stack, replica, options, scope)
                metrics.DB_READS.labels("primary" if session is None else "replica").inc()
            if session is None:
                session = await self._begin(stack, self.sessionmaker, options, scope)
            if "postgresql_readonly" in options:
                session.info[_READ_ONLY_OF] = self
            yield session

    async def _begin(
        self,
        stack: AsyncExitStack,
        sessionmaker: async_sessionmaker[AsyncSession],
        options: dict[str, Any],
        scope: TenantScope | None,
    ) -> AsyncSession:
        session = await stack.enter_async_context(sessionmaker())
        if self.names_project:
            session.info[NAMES_PROJECT] = True
        await stack.enter_async_context(session.begin())
        # The connection is taken here, before any statement, so that the time spent waiting
        # for one is counted (and the isolation level is part of the BEGIN).
        self.waiting += 1
        try:
            await session.connection(execution_options=options or None)
        finally:
            self.waiting -= 1
        if scope is not None:
            await enter_scope(session, scope)
        return session

    async def _on_replica(
        self,
        stack: AsyncExitStack,
        replica: Replica,
        options: dict[str, Any],
        scope: TenantScope | None,
    ) -> AsyncSession | None:
        """A transaction on the replica; None when it cannot be reached (it is marked down,
        and the read goes to the primary rather than failing)."""
        attempt = AsyncExitStack()
        try:
            session = await self._begin(attempt, replica.sessionmaker, options, scope)
            if scope is None:
                # A first statement, as entering the scope is for scoped ones: the driver
                # sends BEGIN with it, so a replica that died since the last check fails here.
                await session.execute(text("SELECT 1"))
        except Exception as exc:
            await attempt.__aexit__(type(exc), exc, exc.__traceback__)
            if not is_outage(exc):
                raise
            replica.mark(healthy=False, problem=f"unreachable ({type(exc).__name__})")
            return None
        stack.push_async_exit(attempt)
        return session

    async def write_position(self) -> int:
        """The primary's WAL insert position: past every commit made before the call."""
        row = await fetch_row(self.engine, WRITE_POSITION)
        return parse_lsn(row[0])

    async def dispose(self) -> None:
        await self.engine.dispose()
        if self.replicas is not None:
            await self.replicas.dispose()
