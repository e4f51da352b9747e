"""A wake-up for every task waiting at once, without a lost notification."""

from __future__ import annotations

import asyncio
import contextlib


class Broadcast:
    """`notify` wakes everyone holding the current `turn`; a later `turn` waits for the next.

    Take the turn before looking at what it announces (a row's status), then wait on it: a
    notify in between has already set that turn, so nothing is missed.
    """

    def __init__(self) -> None:
        self._turn = asyncio.Event()

    def turn(self) -> asyncio.Event:
        return self._turn

    def notify(self) -> None:
        self._turn.set()
        self._turn = asyncio.Event()


async def wait_turn(turn: asyncio.Event, timeout_s: float) -> None:
    """Until the turn is notified or `timeout_s` passes, whichever is first."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(max(timeout_s, 0.0)):
            await turn.wait()
