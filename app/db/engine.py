"""The async engine and the per-request session scope."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.config import Settings
from app.db.tenancy import TenantScope, ambient_scope, enter_scope
from app.db.urls import async_url


class Database:
    """Owns the engine and hands out sessions; one per process."""

    def __init__(self, url: str, settings: Settings) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(
            async_url(url),
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_max_overflow,
            pool_pre_ping=True,
            connect_args={"timeout": settings.db_connect_timeout_s},
        )
        self.sessionmaker = async_sessionmaker(self.engine, expire_on_commit=False)

    @asynccontextmanager
    async def transaction(
        self,
        *,
        project_id: uuid.UUID | None = None,
        knowledge_bases: Collection[uuid.UUID] | None = None,
    ) -> AsyncIterator[AsyncSession]:
        """One session, committed once when the block ends without error, rolled back otherwise.

        With `project_id` the transaction sees only that project's rows (and only the given
        knowledge bases), enforced by row-level security (app/db/tenancy.py); every request
        passes its caller's project, and a job's handler runs inside `acting_for` its project.
        Without either, the transaction is the service's own: the job queue, key lookup,
        project administration.
        """
        scope = ambient_scope()
        if project_id is not None:
            kbs = None if knowledge_bases is None else frozenset(knowledge_bases)
            scope = TenantScope(project_id, kbs)
        async with self.sessionmaker() as session, session.begin():
            if scope is not None:
                await enter_scope(session, scope)
            yield session

    async def dispose(self) -> None:
        await self.engine.dispose()
