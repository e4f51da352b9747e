"""Read replicas: which streaming standby may serve a read, from a health check of each.

Each check reads the primary's WAL position, then each replica's replayed position. A replica
is healthy when it answers, is a standby (in recovery), and is at most `replica_max_lag_s`
behind. The lag is measured against the primary's own past positions rather than the last
replayed commit's timestamp, which grows on an idle primary although nothing is missing: a
replica that has replayed what the primary had written at time t misses at most what was
committed after t, so its lag is at most now - t (to within one check interval).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db.consistency import parse_lsn
from app.db.outage import is_outage, lost_connection
from app.kit.errors import DatabaseUnavailable
from app.observability import metrics

logger = logging.getLogger(__name__)

PRIMARY_POSITION = "SELECT pg_current_wal_lsn()::text"
# What a client's token is compared with: past every commit the request made or saw.
WRITE_POSITION = "SELECT pg_current_wal_insert_lsn()::text"
REPLICA_STATE = (
    "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text, "
    "extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8"
)
REPLAYED = "SELECT pg_last_wal_replay_lsn()::text"


async def fetch_row(engine: AsyncEngine, sql: str, *args: object) -> Any:
    """One row of a statement run outside any transaction: one round trip, no BEGIN, and none
    of the ORM's or Core's work per call. A lost connection is discarded (it must not go back
    to the pool) and raised as DatabaseUnavailable."""
    async with engine.connect() as connection:
        raw = await connection.get_raw_connection()
        driver = raw.driver_connection
        assert driver is not None
        try:
            return await driver.fetchrow(sql, *args)
        except Exception as exc:
            # The driver's own error, which SQLAlchemy did not see: a connection the server
            # closed since it was pooled raises InterfaceError, with no SQLSTATE.
            if lost_connection(exc) or driver.is_closed():
                await connection.invalidate()
                raise DatabaseUnavailable(
                    "The database is unavailable (the connection was lost); try again shortly."
                ) from exc
            raise


def replica_label(url: str) -> str:
    """A replica's name in metrics and logs: its host and port, never its credentials."""
    parsed = make_url(url)
    host = parsed.host or str(parsed.query.get("host", "local"))
    return f"{host}:{parsed.port}" if parsed.port else host


@dataclass(eq=False)
class Replica:
    """One replica's engine and what its last check found."""

    label: str
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    healthy: bool = False
    replayed: int = 0
    lag_s: float | None = None
    problem: str | None = field(default="not checked yet")

    async def replay_position(self) -> int:
        row = await fetch_row(self.engine, REPLAYED)
        return parse_lsn(row[0]) if row is not None and row[0] is not None else 0

    def mark(self, *, healthy: bool, problem: str | None = None) -> None:
        if healthy != self.healthy or problem != self.problem:
            if healthy:
                logger.info("read replica %s is in use", self.label)
            else:
                logger.warning("read replica %s is skipped: %s", self.label, problem)
        self.healthy = healthy
        self.problem = problem
        metrics.DB_REPLICA_HEALTHY.labels(self.label).set(1 if healthy else 0)
        if self.lag_s is not None:
            metrics.DB_REPLICA_LAG.labels(self.label).set(self.lag_s)


class ReplicaSet:
    """The configured replicas; `choose` picks one for a read, `check` refreshes their state."""

    def __init__(
        self,
        urls: Sequence[str],
        *,
        max_lag_s: float,
        check_s: float,
        make_engine: Callable[[str], AsyncEngine],
    ) -> None:
        self.max_lag_s = max_lag_s
        self.check_s = check_s
        self.replicas = []
        for url in urls:
            engine = make_engine(url)
            self.replicas.append(
                Replica(
                    replica_label(url), engine, async_sessionmaker(engine, expire_on_commit=False)
                )
            )
        # (monotonic time, primary WAL position) of recent checks, oldest first.
        self._primary: deque[tuple[float, int]] = deque()
        self._turn = 0

    def healthy(self) -> list[Replica]:
        """The healthy replicas, starting with the next in turn (reads spread round-robin)."""
        found = [replica for replica in self.replicas if replica.healthy]
        if not found:
            return []
        self._turn = (self._turn + 1) % len(found)
        return found[self._turn :] + found[: self._turn]

    async def choose(self, token: int | None) -> Replica | None:
        """A healthy replica that has replayed `token` (when given); None: use the primary."""
        candidates = self.healthy()
        if not candidates:
            return None
        if token is None:
            return candidates[0]
        for replica in candidates:
            if replica.replayed >= token:
                return replica
        # The positions are up to one check old: ask one replica where it is now (one round
        # trip, only for a token newer than every replica's last known position).
        replica = candidates[0]
        try:
            replica.replayed = max(replica.replayed, await replica.replay_position())
        except Exception as exc:
            if not is_outage(exc) and not lost_connection(exc):
                raise
            replica.mark(healthy=False, problem=f"unreachable ({type(exc).__name__})")
            return None
        return replica if replica.replayed >= token else None

    async def check(self, primary: AsyncEngine) -> None:
        """Look at the primary's position, then at every replica's, and mark each."""
        now = time.monotonic()
        try:
            row = await fetch_row(primary, PRIMARY_POSITION)
        except Exception as exc:
            if not is_outage(exc) and not lost_connection(exc):
                raise
            primary_answered = False
        else:
            primary_answered = True
            self._primary.append((now, parse_lsn(row[0])))
        keep_s = self.max_lag_s + 2 * self.check_s
        while len(self._primary) > 1 and now - self._primary[0][0] > keep_s:
            self._primary.popleft()
        await asyncio.gather(
            *(self._check_one(replica, now, primary_answered) for replica in self.replicas)
        )

    async def _check_one(self, replica: Replica, now: float, primary_answered: bool) -> None:
        try:
            row = await fetch_row(replica.engine, REPLICA_STATE)
        except Exception as exc:
            # Logged by `mark` when the problem changes, not at every check.
            problem = (
                f"unreachable ({type(exc).__name__})"
                if is_outage(exc) or lost_connection(exc)
                else f"the check failed ({type(exc).__name__}: {exc})"[:300]
            )
            replica.mark(healthy=False, problem=problem)
            return
        in_recovery, replayed, replay_age = row
        if not in_recovery or replayed is None:
            # A promoted standby, or a URL that names a primary: its positions say nothing
            # about what the primary has, so no token could be honoured there.
            replica.mark(healthy=False, problem="not a standby (pg_is_in_recovery() is false)")
            return
        replica.replayed = max(replica.replayed, parse_lsn(replayed))
        replica.lag_s = self._lag(replica.replayed, replay_age, now, primary_answered)
        if replica.lag_s > self.max_lag_s:
            replica.mark(
                healthy=False,
                problem=f"{replica.lag_s:.1f} s behind (bound {self.max_lag_s:g} s)",
            )
        else:
            replica.mark(healthy=True)

    def _lag(
        self, replayed: int, replay_age: float | None, now: float, primary_answered: bool
    ) -> float:
        """At most how many seconds of commits the replica misses."""
        if not self._primary:
            return replay_age or 0.0
        if not primary_answered and replayed >= self._primary[-1][1]:
            # The primary is unreachable and the replica has all it was last seen with:
            # the freshest copy there is, so reads keep working from it.
            return 0.0
        for seen_at, position in reversed(self._primary):
            if position <= replayed:
                return now - seen_at
        # Behind every remembered position: older than the history, and the last replayed
        # commit's age bounds it too.
        return max(now - self._primary[0][0], replay_age or 0.0)

    async def dispose(self) -> None:
        for replica in self.replicas:
            await replica.engine.dispose()
