"""The asyncpg connection under a SQLAlchemy session, for what SQLAlchemy does not do: COPY."""

from __future__ import annotations

import asyncpg
from sqlalchemy.ext.asyncio import AsyncSession


async def session_driver(session: AsyncSession) -> asyncpg.Connection:
    """The driver connection of the session's transaction (begun if it was not): statements
    run on it are part of that transaction."""
    connection = await session.connection()
    raw = await connection.get_raw_connection()
    driver = raw.driver_connection
    assert driver is not None
    return driver
