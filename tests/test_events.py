"""The event feed: what happened, in commit order, written with the change; long polling."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.config import Settings
from app.documents import pipeline
from app.events import repository, service
from app.kit.errors import UnprocessableDocument
from app.kit.pagination import encode_cursor

DOCS = "/v1/knowledge-bases/kb/documents"


@pytest.fixture
async def kb(client: httpx.AsyncClient) -> dict[str, Any]:
    response = await client.post("/v1/knowledge-bases", json={"name": "kb"})
    assert response.status_code == 201
    return dict(response.json())


async def feed(client: httpx.AsyncClient, **params: Any) -> dict[str, Any]:
    response = await client.get("/v1/events", params=params)
    assert response.status_code == 200, response.text
    return dict(response.json())


async def upload(client: httpx.AsyncClient, text_: str, **extra: Any) -> dict[str, Any]:
    response = await client.post(DOCS, params={"wait": "true"}, json={"text": text_, **extra})
    assert response.json()["status"] in ("ready", "failed"), response.text
    return dict(response.json())


def kinds(page: dict[str, Any]) -> list[tuple[str, str]]:
    return [(event["type"], event["subject_id"]) for event in page["items"]]


async def test_a_follower_sees_each_change_once_in_order(
    client: httpx.AsyncClient, kb: dict[str, Any]
) -> None:
    first = await upload(client, "The first document.", metadata={"team": "ops"})
    page = await feed(client)
    assert kinds(page) == [("knowledge_base.created", kb["id"]), ("document.ready", first["id"])]
    ready = page["items"][1]["data"]
    assert (ready["status"], ready["chunk_count"], ready["metadata"]) == (
        "ready",
        first["chunk_count"],
        {"team": "ops"},
    )
    assert (await feed(client, after=page["next_cursor"]))["items"] == []

    second = await upload(client, "The second document.", external_id="two")
    newer = await upload(client, "The second document, version two.", external_id="two")
    assert (await client.delete(f"{DOCS}/{first['id']}")).status_code == 204
    page = await feed(client, after=page["next_cursor"])
    assert kinds(page) == [
        ("document.ready", second["id"]),
        ("document.deleted", second["id"]),
        ("document.ready", newer["id"]),
        ("document.deleted", first["id"]),
    ]
    replaced, took_over, deleted = (page["items"][i]["data"] for i in (1, 2, 3))
    assert (replaced["reason"], replaced["replaced_by"]) == ("replaced", newer["id"])
    assert took_over["replaced"] == second["id"]
    assert deleted["reason"] == "deleted"
    # Filters, and a cursor kept while nothing happens.
    only = await feed(client, type="document.deleted")
    assert [event["subject_id"] for event in only["items"]] == [second["id"], first["id"]]
    quiet = await feed(client, after=page["next_cursor"])
    assert (quiet["items"], quiet["next_cursor"]) == ([], page["next_cursor"])


async def test_failures_and_deletions_by_filter_are_events(
    client: httpx.AsyncClient, kb: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = await upload(client, "Kept.", metadata={"year": 2024})
    gone = await upload(client, "Gone.", metadata={"year": 2001})

    def refuse(*_: Any, **__: Any) -> Any:
        raise UnprocessableDocument("cannot read this one")

    monkeypatch.setattr(pipeline, "parse_document", refuse)
    failed = await upload(client, "Unreadable.")
    assert failed["status"] == "failed"
    response = await client.post(f"{DOCS}/delete", json={"filter": {"metadata.year": 2001}})
    assert response.json()["deleted"] == 1

    page = await feed(client, type=["document.failed", "document.deleted"])
    assert kinds(page) == [("document.failed", failed["id"]), ("document.deleted", gone["id"])]
    assert page["items"][0]["data"]["error"] == "cannot read this one"
    assert kept["id"] not in {subject for _, subject in kinds(page)}


async def test_waiting_returns_when_an_event_commits(
    client: httpx.AsyncClient, kb: dict[str, Any]
) -> None:
    start = (await feed(client))["next_cursor"]
    started = time.monotonic()
    waiting = asyncio.create_task(feed(client, after=start, wait=20))
    await asyncio.sleep(0.5)
    assert not waiting.done()
    document = await upload(client, "Something to wait for.")
    page = await waiting
    assert kinds(page) == [("document.ready", document["id"])]
    assert time.monotonic() - started < 10
    nothing = await feed(client, after=page["next_cursor"], wait=0.3)
    assert nothing["items"] == []


async def test_an_event_of_a_running_transaction_holds_back_later_ones(
    client: httpx.AsyncClient, app: FastAPI, kb: dict[str, Any]
) -> None:
    # Ids are handed out at insert, commits come in any order: a follower that had read the
    # later event would have passed the earlier one for good.
    start = (await feed(client))["next_cursor"]
    slow_subject = uuid.uuid4()
    async with app.state.database.transaction() as session:
        project_id = await session.scalar(
            text("SELECT project_id FROM knowledge_bases WHERE id = :id"), {"id": kb["id"]}
        )
        repository.add(
            session,
            project_id=project_id,
            knowledge_base_id=uuid.UUID(kb["id"]),
            type_="document.deleted",
            subject_id=slow_subject,
            data={},
        )
        await session.flush()
        document = await upload(client, "Committed while the other is open.")
        assert (await feed(client, after=start))["items"] == []
    page = await feed(client, after=start)
    assert kinds(page) == [
        ("document.deleted", str(slow_subject)),
        ("document.ready", document["id"]),
    ]


async def test_old_events_are_pruned(
    client: httpx.AsyncClient, app: FastAPI, kb: dict[str, Any], settings: Settings
) -> None:
    await upload(client, "Old news.")
    async with app.state.database.transaction() as session:
        await session.execute(text("UPDATE events SET created_at = now() - interval '8 days'"))
    await upload(client, "Fresh news.")
    assert await service.prune(app.state.database, retention_days=7) == 2
    assert [event["type"] for event in (await feed(client))["items"]] == ["document.ready"]
    assert await service.prune(app.state.database, retention_days=0) == 0


async def test_bad_cursors_are_422(client: httpx.AsyncClient, kb: dict[str, Any]) -> None:
    beyond = [encode_cursor([1, 2**63]), encode_cursor([2**64, 1]), encode_cursor([-1, 1])]
    for cursor in ("nonsense", "WyJhIiwxXQ", *beyond):  # the second: ["a",1]
        response = await client.get("/v1/events", params={"after": cursor})
        assert response.status_code == 422
    assert (await client.get("/v1/events", params={"type": "document.eaten"})).status_code == 422
