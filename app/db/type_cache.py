"""Teach a connection the types the service's statements use, before any request needs them.

asyncpg looks up each type it has no built-in codec for (arrays such as uuid[] and real[],
pgvector's `vector`) with an introspection query the first time a statement on that
connection binds or returns it: 4-8 ms, paid by whichever request is first, once per
statement shape that brings a new type. One query at connect time pays it for all of them.
Setting or resetting a codec (the chunk COPY does both) clears what was learned, so the COPY
teaches the types again before it hands the connection back.
"""

from __future__ import annotations

from typing import Any

import asyncpg
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

# The array types search, the chunk writes and the listings bind (as SQLAlchemy's asyncpg
# dialect sends them: ARRAY(Text) travels as varchar[]).
ARRAY_TYPES = (
    "SELECT NULL::uuid[], NULL::real[], NULL::double precision[], NULL::varchar[], "
    "NULL::text[], NULL::integer[], NULL::bigint[], NULL::boolean[], "
    "to_regtype('public.vector') IS NOT NULL"
)
# pgvector's type, once its extension exists (a database being migrated may not have it yet).
VECTOR_TYPE = "SELECT NULL::public.vector"


async def learn_types(driver: asyncpg.Connection) -> None:
    """Have `driver` introspect the service's non-built-in types now (two round trips)."""
    rows = await driver.fetch(ARRAY_TYPES)
    if rows[0][-1]:
        await driver.fetch(VECTOR_TYPE)


def learn_types_on_connect(engine: AsyncEngine) -> None:
    """Every new pooled connection of `engine` learns the types before its first checkout."""

    @event.listens_for(engine.sync_engine, "connect")
    def learn(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.run_async(learn_types)
