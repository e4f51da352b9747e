"""Housekeeping loops: a failure waits for the next round; an outage is one line, not a trace;
processes sharing a database run a loop one at a time and once a period between them, and
migrate one after the other."""

from __future__ import annotations

import asyncio
import logging
import sys
import uuid

import asyncpg
import pytest
from sqlalchemy import text

from app.config import Settings
from app.db.engine import Database
from app.db.migrate import head_revision
from app.db.urls import asyncpg_dsn
from app.kit.errors import DatabaseUnavailable
from app.kit.periodic import every, run_shared
from tests.conftest import with_database


@pytest.mark.parametrize(
    ("error", "level", "traced"),
    [
        (DatabaseUnavailable("down"), logging.WARNING, False),
        (RuntimeError("bug"), logging.ERROR, True),
    ],
)
async def test_a_failing_round_is_logged_and_the_loop_goes_on(
    caplog: pytest.LogCaptureFixture, error: Exception, level: int, traced: bool
) -> None:
    rounds = 0

    async def work() -> None:
        nonlocal rounds
        rounds += 1
        raise error

    with caplog.at_level(logging.WARNING, logger="app.kit.periodic"):
        task = asyncio.create_task(every(0.01, work, what="pruning"))
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert rounds > 2
    records = [r for r in caplog.records if r.name == "app.kit.periodic"]
    assert {r.levelno for r in records} == {level}
    assert all((r.exc_info is not None) == traced for r in records)


async def test_a_shared_round_runs_in_one_process_at_a_time_and_once_a_period(
    settings: Settings, database_url: str
) -> None:
    # Three engines: three pools of connections, as three processes on one database have.
    nodes = [Database(database_url, settings) for _ in range(3)]
    running = 0
    most = 0
    rounds = 0
    entered, release = asyncio.Event(), asyncio.Event()

    async def sweep() -> None:
        nonlocal running, most, rounds
        entered.set()
        running += 1
        rounds += 1
        most = max(most, running)
        await release.wait()
        running -= 1

    try:
        # Every node starts its first round together (period 0: always due): one gets in,
        # the others find the loop busy and skip rather than wait or run beside it.
        first = asyncio.create_task(run_shared(nodes[0], "upkeep", sweep, period_s=0))
        await entered.wait()
        others = [run_shared(node, "upkeep", sweep, period_s=0) for node in nodes[1:]]
        assert await asyncio.gather(*others) == [False, False]
        release.set()
        assert await first is True
        assert (rounds, most) == (1, 1)
        # Within the period the round that ran counts for every node; past it, one runs again.
        assert [await run_shared(n, "upkeep", sweep, period_s=60) for n in nodes] == [False] * 3
        async with nodes[0].engine.connect() as connection:
            await connection.execute(
                text("UPDATE periodic_runs SET started_at = started_at - interval '61 s'")
            )
            await connection.commit()
        ran = [await run_shared(n, "upkeep", sweep, period_s=60) for n in nodes]
        assert ran == [True, False, False]
        async with nodes[0].engine.connect() as connection:
            row = (
                await connection.execute(
                    text("SELECT runs, finished_at >= started_at FROM periodic_runs")
                )
            ).one()
        assert tuple(row) == (2, True)
    finally:
        for node in nodes:
            await node.dispose()


async def test_processes_starting_together_migrate_one_after_the_other(pg_url: str) -> None:
    name = f"arbor_migrate_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(asyncpg_dsn(pg_url))
    await admin.execute(f"CREATE DATABASE {name}")
    url = with_database(pg_url, name)
    try:
        # Three processes (Alembic's API is not thread-safe). Without the migration lock the
        # second and third fail on tables the first created.
        code = f"from app.db.migrate import upgrade_to_head; upgrade_to_head({url!r})"
        processes = [
            await asyncio.create_subprocess_exec(
                sys.executable, "-c", code, stderr=asyncio.subprocess.PIPE
            )
            for _ in range(3)
        ]
        results = await asyncio.gather(*(p.communicate() for p in processes))
        assert [p.returncode for p in processes] == [0, 0, 0], [err for _, err in results]
        connection = await asyncpg.connect(asyncpg_dsn(url))
        try:
            assert await connection.fetchval("SELECT version_num FROM alembic_version") == (
                head_revision()
            )
        finally:
            await connection.close()
    finally:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await admin.close()


async def test_a_loop_cancelled_mid_statement_ends_and_frees_the_loop(
    settings: Settings, database_url: str
) -> None:
    nodes = [Database(database_url, settings) for _ in range(2)]
    rounds = 0

    async def sweep() -> None:
        nonlocal rounds
        rounds += 1

    blocker = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        assert await run_shared(nodes[0], "upkeep", sweep, period_s=0) is True
        # Another session holds the loop's row: the next round's claim waits on it.
        await blocker.execute("BEGIN")
        await blocker.execute("SELECT * FROM periodic_runs FOR UPDATE")
        loop = asyncio.create_task(every(3600, sweep, what="upkeep", shared=nodes[0]))
        waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        async with asyncio.timeout(10):
            while not await blocker.fetchval(waiting):  # noqa: ASYNC110 (another session)
                await asyncio.sleep(0.02)
        loop.cancel()  # the app stops mid-statement: the loop must end, not go on
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(loop, timeout=10)
        await blocker.execute("ROLLBACK")
        # The cancelled round's connection was closed, and its lock with it: the next
        # process gets in at once.
        assert await run_shared(nodes[1], "upkeep", sweep, period_s=0) is True
        assert rounds == 2
    finally:
        await blocker.close()
        for node in nodes:
            await node.dispose()
