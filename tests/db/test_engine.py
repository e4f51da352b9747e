"""The connection pool: idle connections are tested before use and replaced when dead."""

from __future__ import annotations

import asyncpg
import pytest
from sqlalchemy import text

from app.config import Settings
from app.db import engine
from app.db.engine import Database
from app.db.urls import asyncpg_dsn
from app.kit.errors import DatabaseUnavailable


async def backend_pid(database: Database) -> int:
    async with database.transaction() as session:
        pid = await session.scalar(text("SELECT pg_backend_pid()"))
    assert isinstance(pid, int)
    return pid


@pytest.mark.parametrize("idle", [True, False])
async def test_a_dead_connection_is_replaced_after_idling_and_fails_once_before(
    settings: Settings, database_url: str, monkeypatch: pytest.MonkeyPatch, idle: bool
) -> None:
    database = Database(database_url, settings.model_copy(update={"db_pool_size": 1}))
    try:
        first = await backend_pid(database)
        admin = await asyncpg.connect(asyncpg_dsn(database_url))
        try:
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", first)
        finally:
            await admin.close()
        monkeypatch.setattr(engine, "PING_IDLE_AFTER_S", 0.0 if idle else 3600.0)
        if idle:
            # Pinged on checkout, found dead, replaced: the caller never sees it.
            assert await backend_pid(database) != first
        else:
            # Not pinged: that one request fails (a 503 to a client, app/db/outage.py), and
            # the pool is renewed for the next.
            with pytest.raises(DatabaseUnavailable):
                await backend_pid(database)
            assert await backend_pid(database) != first
    finally:
        await database.dispose()
