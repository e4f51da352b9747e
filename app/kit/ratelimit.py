"""Sliding-window rate-limit arithmetic: two fixed one-minute windows, the previous one weighted.

The count is the current minute's requests plus the previous minute's, weighted by how much of
it still overlaps the last 60 seconds (the estimate Cloudflare and nginx-style limiters use).
A request fits when previous * overlap + current + 1 <= limit; app/auth/ratelimit.py checks
that in SQL, next to the counts it keeps in Postgres, and asks here how long to wait.
"""

from __future__ import annotations

import math

WINDOW_S = 60.0


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
