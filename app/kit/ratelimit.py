"""Sliding-window rate-limit arithmetic: two fixed one-minute windows, the previous one weighted.

The count is the current minute's requests plus the previous minute's, weighted by how much of
it still overlaps the last 60 seconds (the estimate Cloudflare and nginx-style limiters use).
Where the counts live is the caller's business (app/auth/ratelimit.py keeps them in Postgres).
"""

from __future__ import annotations

import math

WINDOW_S = 60.0


def admits(limit: int, *, previous: int, current: int, elapsed: float) -> bool:
    """Whether one more request fits, `elapsed` seconds into the current window."""
    overlap = (WINDOW_S - elapsed) / WINDOW_S
    return previous * overlap + current + 1 <= limit


def retry_after(limit: int, *, previous: int, current: int, elapsed: float) -> int:
    """Seconds (>= 1) until one more request fits; the previous window keeps sliding out."""
    room = limit - 1 - current
    if room >= 0 and previous > 0:
        # previous * (WINDOW - elapsed - t) / WINDOW <= room
        wait = (WINDOW_S - elapsed) - WINDOW_S * room / previous
    elif current > 0:
        # The current window alone is full: wait for it to become the previous one, then
        # until enough of it has slid out.
        wait = (WINDOW_S - elapsed) + WINDOW_S * (1 - (limit - 1) / current)
    else:
        wait = WINDOW_S - elapsed
    return max(1, math.ceil(wait))
