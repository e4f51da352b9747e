"""Requests per minute per key: an in-process sliding window (two fixed windows, weighted).

The count is the current minute's requests plus the previous minute's, weighted by how much of
it still overlaps the last 60 seconds (the estimate Cloudflare and nginx-style limiters use).
Each process counts for itself: with N processes a key gets up to N times the limit. That is
the trade for no shared store; put a gateway in front for a cluster-wide limit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

WINDOW_S = 60.0
_SWEEP_EVERY = 1024


@dataclass(slots=True)
class _Window:
    index: int
    current: int
    previous: int


class RateLimiter:
    """`hit(key)` counts a request: None when allowed, else seconds to wait (>= 1)."""

    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._windows: dict[str, _Window] = {}
        self._hits = 0

    @property
    def enabled(self) -> bool:
        return self.per_minute > 0

    def hit(self, key: str) -> int | None:
        if not self.enabled:
            return None
        now = self._clock()
        index = int(now // WINDOW_S)
        elapsed = now - index * WINDOW_S
        window = self._roll(key, index)
        overlap = (WINDOW_S - elapsed) / WINDOW_S
        if window.previous * overlap + window.current + 1 > self.per_minute:
            return self._retry_after(window, elapsed)
        window.current += 1
        self._hits += 1
        if self._hits % _SWEEP_EVERY == 0:
            self._sweep(index)
        return None

    def _roll(self, key: str, index: int) -> _Window:
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = _Window(index, 0, 0)
        elif window.index != index:
            previous = window.current if window.index == index - 1 else 0
            window.index, window.current, window.previous = index, 0, previous
        return window

    def _retry_after(self, window: _Window, elapsed: float) -> int:
        """Seconds until one more request fits (the previous window keeps sliding out)."""
        room = self.per_minute - 1 - window.current
        if room >= 0 and window.previous > 0:
            # previous * (WINDOW - elapsed - t) / WINDOW <= room
            wait = (WINDOW_S - elapsed) - WINDOW_S * room / window.previous
        else:
            # The current window alone is full: wait for it to become the previous one,
            # then until enough of it has slid out.
            wait = (WINDOW_S - elapsed) + WINDOW_S * (1 - (self.per_minute - 1) / window.current)
        return max(1, math.ceil(wait))

    def _sweep(self, index: int) -> None:
        stale = [key for key, window in self._windows.items() if window.index < index - 1]
        for key in stale:
            del self._windows[key]
