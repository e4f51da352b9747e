"""Housekeeping loops: a failure waits for the next round; an outage is one line, not a trace."""

from __future__ import annotations

import asyncio
import logging

import pytest

from app.kit.errors import DatabaseUnavailable
from app.kit.periodic import every


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
