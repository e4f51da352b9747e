"""The start-up heap is frozen out of the garbage collector's full collections."""

from __future__ import annotations

import gc

from fastapi import FastAPI

from app.kit.heap import freeze_startup_heap


async def test_start_up_freezes_the_heap_once(app: FastAPI) -> None:
    frozen = gc.get_freeze_count()
    # A started app holds the modules, SQLAlchemy's mappers and the app's routes: many objects.
    assert frozen > 50_000
    kept = [{"n": i} for i in range(1_000)]
    # Later calls (a test process starts many apps) freeze nothing more; they answer the
    # count frozen at start-up, some of which may have been freed since.
    assert freeze_startup_heap() >= frozen
    assert gc.get_freeze_count() <= frozen
    assert len(kept) == 1_000
