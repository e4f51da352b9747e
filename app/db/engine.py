"""The async engine and the per-request session scope."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.config import Settings
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
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """One session, committed once when the block ends without error, rolled back otherwise."""
        async with self.sessionmaker() as session, session.begin():
            yield session

    async def dispose(self) -> None:
        await self.engine.dispose()
