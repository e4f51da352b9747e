"""Housekeeping that runs now and then for the life of the app."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from app.db.outage import is_outage

logger = logging.getLogger(__name__)


async def every(seconds: float, work: Callable[[], Awaitable[object]], *, what: str) -> None:
    """Run `work` now and then every `seconds`, until cancelled; a failure waits for the next
    round (logged) rather than ending the loop."""
    while True:
        try:
            await work()
        except Exception as exc:
            if is_outage(exc):  # one line: the outage is reported where it is noticed
                logger.warning("%s skipped: the database is unavailable (%s)", what, exc)
            else:
                logger.exception("%s failed; trying again in %.0f s", what, seconds)
        await asyncio.sleep(seconds)
