"""Housekeeping that runs now and then for the life of the app."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

logger = logging.getLogger(__name__)


async def every(seconds: float, work: Callable[[], Awaitable[object]], *, what: str) -> None:
    """Run `work` now and then every `seconds`, until cancelled; a failure waits for the next
    round (logged) rather than ending the loop."""
    while True:
        try:
            await work()
        except Exception:
            logger.exception("%s failed; trying again in %.0f s", what, seconds)
        await asyncio.sleep(seconds)
