"""Alembic environment: async engine, URL from the caller or DATABASE_URL."""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from app.db.urls import async_url
from app.kit.periodic import LOCK_SPACE
from app.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = config.attributes.get("database_url") or os.environ.get("DATABASE_URL")
    if not url:
        raise RuntimeError("no database URL: set DATABASE_URL or run `arbor migrate`")
    return str(url)


# Every `arbor serve` and `arbor worker` migrates at start; several starting together on one
# database must not run the same migration at once (the second would fail on a table the first
# created). A session-level advisory lock on the migrating connection queues them: the next
# one in finds the schema at head and has nothing to do. Two-key form, in the service's own
# lock space.
MIGRATION_LOCK = text("SELECT pg_advisory_lock(:space, hashtext('migrations'))")
MIGRATION_UNLOCK = text("SELECT pg_advisory_unlock(:space, hashtext('migrations'))")


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_async_engine(async_url(_url()))
    async with engine.connect() as connection:
        await connection.execute(MIGRATION_LOCK, {"space": LOCK_SPACE})
        await connection.commit()  # the lock outlives this transaction: it is the session's
        try:
            await connection.run_sync(_run)
            await connection.commit()
        finally:
            await connection.rollback()  # a failed migration's transaction, if any
            await connection.execute(MIGRATION_UNLOCK, {"space": LOCK_SPACE})
            await connection.commit()
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=str(async_url(_url())), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_async())
