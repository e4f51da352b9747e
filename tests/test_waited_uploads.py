"""An upload with `?wait=true` answers when this process's workers finish its document."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.documents import service
from app.kit.broadcast import Broadcast, wait_turn


async def test_a_notify_wakes_the_turns_taken_before_it_only() -> None:
    ran = Broadcast()
    before = ran.turn()
    ran.notify()
    after = ran.turn()
    await asyncio.wait_for(wait_turn(before, 60), timeout=5)  # woken, not timed out
    assert before.is_set()
    assert not after.is_set()
    await wait_turn(after, 0.01)  # returns at its timeout
    assert not after.is_set()


async def test_a_waited_upload_is_answered_by_the_workers_not_the_poll(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request looks again when a worker of this process ran a job, not at its poll."""
    woken: list[bool] = []

    async def spied(turn: asyncio.Event, timeout_s: float) -> None:
        await wait_turn(turn, timeout_s)
        woken.append(turn.is_set())

    monkeypatch.setattr(service, "WAIT_POLL_S", 3600.0)
    monkeypatch.setattr(service, "wait_turn", spied)
    assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).is_success
    response = await client.post(
        "/v1/knowledge-bases/kb/documents",
        params={"wait": "true", "timeout": 30},
        json={"text": "Rivers carry silt to the sea. Deltas grow where it settles."},
    )
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "ready"
    # Every wait ended by a worker's notice: none ran out (the poll is an hour).
    assert woken
    assert all(woken)
