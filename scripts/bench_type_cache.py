"""What the driver's type lookups cost: learned at connect time, or lazily by a search.

asyncpg introspects each type it has no built-in codec for the first time a statement on the
connection uses it (app/db/type_cache.py). On an embedded server with the schema at head,
`--connections` new connections each: `learn_types` first (a new backend), `learn_types`
again after `reload_schema_state` (what the chunk COPY pays), and the two lookups a hybrid
search made lazily (its `uuid[]` statement, then the search's other arrays). Medians.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg

from app.db.embedded import EmbeddedPostgres
from app.db.migrate import upgrade_to_head_async
from app.db.type_cache import learn_types
from app.db.urls import asyncpg_dsn


async def lazy_lookups(connection: asyncpg.Connection) -> None:
    await connection.fetch("SELECT $1::uuid[]", [])
    await connection.fetch("SELECT $1::varchar[], $2::real[], $3::int[]", [], [], [])


async def timed(
    step: Callable[[asyncpg.Connection], Awaitable[object]], connection: asyncpg.Connection
) -> float:
    started = time.perf_counter()
    await step(connection)
    return (time.perf_counter() - started) * 1000


async def measure(url: str, connections: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"new connection": [], "again": [], "lazy": []}
    for _ in range(connections):
        connection = await asyncpg.connect(asyncpg_dsn(url))
        try:
            times["new connection"].append(await timed(learn_types, connection))
            await connection.reload_schema_state()
            times["again"].append(await timed(learn_types, connection))
            await connection.reload_schema_state()
            times["lazy"].append(await timed(lazy_lookups, connection))
        finally:
            await connection.close()
    return times


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--connections", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        server = EmbeddedPostgres(Path(root) / "pg", delete_on_close=True)
        url = server.start()
        try:
            await upgrade_to_head_async(url)
            times = await measure(url, args.connections)
        finally:
            server.stop()
    print("| step | median ms |\n| --- | --- |")
    print(f"| learn_types on a new connection | {statistics.median(times['new connection']):.1f} |")
    print(f"| learn_types again (after a codec change) | {statistics.median(times['again']):.1f} |")
    print(f"| a hybrid search's two lazy lookups | {statistics.median(times['lazy']):.1f} |")


if __name__ == "__main__":
    asyncio.run(main())
