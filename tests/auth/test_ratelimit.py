"""The rate limiter: one budget per key in Postgres, shared by every process."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text

from app.auth.ratelimit import RateLimiter
from app.config import Settings
from app.db.engine import Database
from app.kit.ratelimit import retry_after

MINUTE_START = 1_000_020.0  # a minute starts here on the epoch clock (16,667 * 60)


@pytest.fixture
async def databases(database_url: str) -> AsyncIterator[tuple[Database, Database]]:
    """Two engines on one database: what two service processes have."""
    first, second = (
        Database(database_url, Settings(env="test")),
        Database(database_url, Settings(env="test")),
    )
    yield first, second
    await first.dispose()
    await second.dispose()


async def test_counts_per_key_and_says_when_to_retry(databases: tuple[Database, Database]) -> None:
    limiter = RateLimiter(databases[0], 3, now=MINUTE_START + 20)
    assert [await limiter.hit("a") for _ in range(3)] == [None, None, None]
    retry = await limiter.hit("a")
    assert retry is not None
    assert 40 <= retry <= 120
    assert await limiter.hit("b") is None  # another key has its own budget
    assert limiter.now is not None
    limiter.now += retry
    assert await limiter.hit("a") is None


async def test_the_previous_minute_slides_out(databases: tuple[Database, Database]) -> None:
    limiter = RateLimiter(databases[0], 10, now=MINUTE_START + 20)
    assert [await limiter.hit("k") for _ in range(10)] == [None] * 10
    limiter.now = MINUTE_START + 60 + 6  # 6 s into the next minute: 10 * 54/60 = 9 still count
    assert await limiter.hit("k") is None
    retry = await limiter.hit("k")
    assert retry is not None
    limiter.now += retry
    assert await limiter.hit("k") is None
    limiter.now += 600  # long idle: a fresh budget
    assert [await limiter.hit("k") for _ in range(10)] == [None] * 10


async def test_two_processes_share_one_budget(databases: tuple[Database, Database]) -> None:
    now = MINUTE_START + 30
    first, second = (RateLimiter(database, 4, now=now) for database in databases)
    allowed = [await limiter.hit("key") for limiter in (first, second, first, second)]
    assert allowed == [None] * 4
    # In-process counting would allow each process its own 4.
    assert await first.hit("key") is not None
    assert await second.hit("key") is not None


async def test_concurrent_requests_never_overshoot(databases: tuple[Database, Database]) -> None:
    now = MINUTE_START + 1
    limiters = [RateLimiter(database, 7, now=now) for database in databases]
    results = await asyncio.gather(*(limiters[i % 2].hit("busy") for i in range(20)))
    assert sum(result is None for result in results) == 7


async def test_off_never_touches_the_database() -> None:
    nowhere = Database("postgresql+asyncpg://nobody@127.0.0.1:1/none", Settings(env="test"))
    limiter = RateLimiter(nowhere, 0)
    assert all([await limiter.hit("k") is None for _ in range(100)])
    await nowhere.dispose()


def test_retry_after_arithmetic() -> None:
    # Full current window, nothing before: wait into the next minute until room slides out.
    assert retry_after(3, previous=0, current=3, elapsed=20) == 60
    # 6 s into the minute, 9 of the previous 10 still count: 8 of them must slide out (48 s).
    assert retry_after(10, previous=10, current=1, elapsed=6) == 6


async def test_old_minutes_are_swept(
    databases: tuple[Database, Database], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.auth.ratelimit.SWEEP_EVERY", 1)
    limiter = RateLimiter(databases[0], 5, now=MINUTE_START)
    await limiter.hit("old")
    limiter.now = MINUTE_START + 60
    await limiter.hit("recent")  # the previous minute still counts: kept
    limiter.now = MINUTE_START + 180
    await limiter.hit("now")
    async with databases[0].engine.connect() as connection:
        keys = (await connection.execute(text("SELECT key FROM rate_limit_windows"))).scalars()
        assert sorted(keys) == ["now"]
