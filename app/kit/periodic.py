"""Housekeeping that runs now and then for the life of the app.

Every `arbor serve` and `arbor worker` process runs the same loops. A loop given the database
(`shared=`) runs each round through `run_shared`: one process at a time, and once per period
across every process on the database, not once per process (docs/scaling.md, "Many nodes").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable

from sqlalchemy import text

from app.db.engine import Database
from app.db.outage import is_outage

logger = logging.getLogger(__name__)

# The first key of the two-key advisory locks this service takes by name (`hashtext(name)` is
# the second): a space of its own, apart from the one-key locks taken on UUIDs and counters.
LOCK_SPACE = 0x4152_424F  # "ARBO"

# A round is due when the last one anywhere started at least this share of the period ago:
# the loops of different processes wake at different moments, and one that slept a little
# short of the period must not skip its round for that.
DUE_SHARE = 0.9

# Claims the round: a row per loop, updated only when the last start is old enough. Under the
# advisory lock no other process is in here; the row lock would serialise them anyway.
CLAIM_ROUND = text(
    "INSERT INTO periodic_runs AS p (name, node, started_at, finished_at, runs) "
    "VALUES (:name, :node, clock_timestamp(), NULL, 1) "
    "ON CONFLICT (name) DO UPDATE SET node = EXCLUDED.node, started_at = clock_timestamp(), "
    "finished_at = NULL, runs = p.runs + 1 "
    "WHERE p.started_at <= clock_timestamp() - make_interval(secs => :due) "
    "RETURNING runs"
)
FINISH_ROUND = text(
    "UPDATE periodic_runs SET finished_at = clock_timestamp() WHERE name = :name AND node = :node"
)

NODE = f"{socket.gethostname()}:{os.getpid()}"


async def run_shared(
    database: Database, name: str, work: Callable[[], Awaitable[object]], *, period_s: float
) -> bool:
    """Run `work` unless another process runs this loop now or ran it less than `period_s`
    ago; whether it ran.

    A session-level advisory lock, tried once and held on its own connection for the round,
    keeps two processes out of one loop at the same time; a process that dies mid-round
    loses its connection and with it the lock. The `periodic_runs` row says when the round
    last started, so N processes run it once per period between them.
    """
    async with database.engine.connect() as connection:
        connection = await connection.execution_options(isolation_level="AUTOCOMMIT")
        lock = {"space": LOCK_SPACE, "name": name}
        locked = await connection.scalar(
            text("SELECT pg_try_advisory_lock(:space, hashtext(:name))"), lock
        )
        if not locked:
            return False
        try:
            claimed = await connection.scalar(
                CLAIM_ROUND, {"name": name, "node": NODE, "due": period_s * DUE_SHARE}
            )
            if claimed is not None:
                await work()
                await connection.execute(FINISH_ROUND, {"name": name, "node": NODE})
        except BaseException:
            # Cancelled (the app stops) or failed, perhaps mid-statement: the connection is
            # not trusted with the unlock. Closing it ends its session, and the lock with it;
            # the original error goes on (a failed unlock must not hide a cancellation).
            with contextlib.suppress(Exception):
                await connection.invalidate()
            raise
        await connection.execute(text("SELECT pg_advisory_unlock(:space, hashtext(:name))"), lock)
        return claimed is not None


async def every(
    seconds: float,
    work: Callable[[], Awaitable[object]],
    *,
    what: str,
    shared: Database | None = None,
) -> None:
    """Run `work` now and then every `seconds`, until cancelled; a failure waits for the next
    round (logged) rather than ending the loop. With `shared`, a round runs through
    `run_shared` under the name `what`; the first round of each process is due whenever the
    last one ran, so that a restarted process repairs at once (an index left unbuilt, say)
    rather than a period later."""
    first = True
    while True:
        try:
            if shared is None:
                await work()
            else:
                await run_shared(shared, what, work, period_s=0.0 if first else seconds)
        except Exception as exc:
            if is_outage(exc):  # one line: the outage is reported where it is noticed
                logger.warning("%s skipped: the database is unavailable (%s)", what, exc)
            else:
                logger.exception("%s failed; trying again in %.0f s", what, seconds)
        first = False
        await asyncio.sleep(seconds)
