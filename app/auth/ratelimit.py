"""Requests per minute per key, counted in Postgres so that every process shares one budget.

With `ARBOR_HTTP_WORKERS` > 1, or several replicas on one database, counts kept in each
process's memory allowed a key N times its limit. Each request now runs one statement that
reads the key's previous and current minute (table `rate_limit_windows`, migration 0010) and
increments the current one only if the request fits the sliding window of
app/kit/ratelimit.py. Check and increment are one upsert, so concurrent requests of one key
serialise on its row and can never overshoot. The database's clock decides the minute, so
processes on different hosts agree. A refused request is not counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import Database
from app.kit.ratelimit import WINDOW_S, retry_after

# Rows older than the previous minute no longer count; each process deletes them now and then.
SWEEP_EVERY = 1000

HIT = text(
    """
    WITH clock AS (
        SELECT coalesce(CAST(:now AS double precision),
                        extract(epoch FROM clock_timestamp())) AS t
    ), this_window AS (
        SELECT CAST(floor(t / :window) AS bigint) AS minute,
               t - floor(t / :window) * :window AS elapsed
        FROM clock
    ), counts AS (
        SELECT w.minute, w.elapsed,
               coalesce((SELECT r.count FROM rate_limit_windows r
                         WHERE r.key = :key AND r.minute = w.minute - 1), 0) AS previous,
               coalesce((SELECT r.count FROM rate_limit_windows r
                         WHERE r.key = :key AND r.minute = w.minute), 0) AS current
        FROM this_window w
    ), admitted AS (
        INSERT INTO rate_limit_windows AS r (key, minute, count)
        SELECT :key, c.minute, 1 FROM counts c
        WHERE c.previous * (:window - c.elapsed) / :window + 1 <= :limit
        ON CONFLICT (key, minute) DO UPDATE SET count = r.count + 1
        WHERE (SELECT c.previous * (:window - c.elapsed) / :window FROM counts c)
              + r.count + 1 <= :limit
        RETURNING r.count
    )
    SELECT (SELECT count(*) FROM admitted) AS admitted, previous, current, elapsed FROM counts
    """
)

SWEEP = text(
    "DELETE FROM rate_limit_windows WHERE minute < "
    "CAST(floor(coalesce(CAST(:now AS double precision), "
    "extract(epoch FROM clock_timestamp())) / :window) AS bigint) - 1"
)


@dataclass
class RateLimiter:
    """`await hit(key)` counts a request: None when allowed, else seconds to wait (>= 1).

    `now` (seconds since the epoch) replaces the database's clock in tests.
    """

    database: Database
    per_minute: int
    now: float | None = None
    _hits: int = field(default=0, init=False)

    @cached_property
    def _autocommit(self) -> AsyncEngine:
        # One statement, atomic by itself: autocommit spares the BEGIN and COMMIT round trips.
        return self.database.engine.execution_options(isolation_level="AUTOCOMMIT")

    @property
    def enabled(self) -> bool:
        return self.per_minute > 0

    async def hit(self, key: str) -> int | None:
        if not self.enabled:
            return None
        values = {"key": key, "limit": self.per_minute, "now": self.now, "window": WINDOW_S}
        async with self._autocommit.connect() as connection:
            row = (await connection.execute(HIT, values)).one()
            self._hits += 1
            if self._hits % SWEEP_EVERY == 0:
                await connection.execute(SWEEP, {"now": self.now, "window": WINDOW_S})
        if row.admitted:
            return None
        return retry_after(
            self.per_minute, previous=row.previous, current=row.current, elapsed=row.elapsed
        )
