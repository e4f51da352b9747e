"""Job loops through a database outage: one warning, growing pauses, back by themselves."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.engine import Database
from app.jobs import worker
from app.jobs.worker import WorkerPool
from app.kit.errors import DatabaseUnavailable


class FlakyDatabase(Database):
    """The real database, or, while `down`, the error a refused connect becomes."""

    down = True

    @asynccontextmanager
    async def transaction(
        self,
        *,
        project_id: uuid.UUID | None = None,
        knowledge_bases: Collection[uuid.UUID] | None = None,
    ) -> AsyncIterator[AsyncSession]:
        if self.down:
            raise DatabaseUnavailable() from ConnectionRefusedError(111, "Connection refused")
        async with super().transaction(
            project_id=project_id, knowledge_bases=knowledge_bases
        ) as session:
            yield session


async def test_an_outage_is_one_warning_and_growing_pauses_until_it_ends(
    settings: Settings, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    database = FlakyDatabase(database_url, settings)
    pool = WorkerPool(database, settings, {}, concurrency=1)
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        # Recorded, not slept; the database comes back after seven failed tries.
        pauses.append(seconds)
        database.down = len(pauses) < 7
        await asyncio.sleep(0)

    pool._pause = pause  # type: ignore[method-assign]
    try:
        with caplog.at_level(logging.INFO, logger=worker.__name__):
            pool.start()
            for _ in range(500):
                if "answers again" in caplog.text:
                    break
                await asyncio.sleep(0.01)
            await pool.stop()
    finally:
        await database.dispose()
    assert pauses == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    records = [r for r in caplog.records if r.name == worker.__name__]
    assert [r.levelno for r in records] == [logging.WARNING, logging.WARNING]
    assert "database is unavailable ([Errno 111] Connection refused)" in records[0].getMessage()
    assert "answers again" in records[1].getMessage()
    assert all(r.exc_info is None for r in records)  # no traceback per poll


async def test_a_job_error_still_logs_its_traceback(
    settings: Settings, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    database = FlakyDatabase(database_url, settings)
    database.down = False
    pool = WorkerPool(database, settings, {}, concurrency=1)
    failed = asyncio.Event()

    async def broken() -> bool:
        failed.set()
        raise ValueError("a bug, not an outage")

    pool.run_once = broken  # type: ignore[method-assign]
    try:
        with caplog.at_level(logging.INFO, logger=worker.__name__):
            pool.start()
            await asyncio.wait_for(failed.wait(), timeout=5)
            await asyncio.sleep(0.01)  # the loop logs after run_once raised
            await pool.stop()
    finally:
        await database.dispose()
    assert caplog.records[0].levelno == logging.ERROR
    assert caplog.records[0].exc_info is not None
    assert "unavailable" not in caplog.text


def test_pauses_double_up_to_thirty_seconds() -> None:
    assert [worker.outage_pause(n) for n in range(1, 8)] == [1, 2, 4, 8, 16, 30, 30]
