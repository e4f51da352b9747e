"""Audit: every search and every write is recorded, readable by admins, pruned past retention."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.analytics import service as analytics
from app.audit.service import prune
from app.observability import metrics
from tests.auth.helpers import bearer, create_key, create_project, upload


async def test_searches_and_writes_are_recorded(client: httpx.AsyncClient, app: FastAPI) -> None:
    await create_project(client, "acme")
    admin = (await create_key(client, "acme", scopes=["admin"]))["key"]
    writer = await create_key(client, "acme", name="ingest-bot", scopes=["write"])
    reader = await create_key(client, "acme", name="search-ui", scopes=["read"])
    kb = (
        await client.post("/v1/knowledge-bases", json={"name": "kb"}, headers=bearer(writer["key"]))
    ).json()["id"]
    await upload(client, writer["key"], kb, "# Audit\n\nEvery search leaves a trace.")
    found = await client.post(
        f"/v1/knowledge-bases/{kb}/search",
        json={"query": "search trace", "mode": "text"},
        headers=bearer(reader["key"]),
    )
    hits = len(found.json()["hits"])
    assert hits > 0
    denied = await client.delete(f"/v1/knowledge-bases/{kb}", headers=bearer(reader["key"]))
    assert denied.status_code == 403
    await client.get(f"/v1/knowledge-bases/{kb}", headers=bearer(reader["key"]))  # a read
    await client.post("/v1/knowledge-bases", json={"name": "x"})  # no key: nobody to record

    events = (await client.get("/v1/audit", headers=bearer(admin))).json()
    rows = [
        (e["actor"], e["operation"], e["method"], e["status"], e["hits"]) for e in events["items"]
    ]
    assert rows == [
        ("search-ui", "knowledge_bases-delete", "DELETE", 403, None),
        ("search-ui", "search-knowledge_base", "POST", 200, hits),
        ("ingest-bot", "documents-create", "POST", 200, None),  # 200: waited until ready
        ("ingest-bot", "knowledge_bases-create", "POST", 201, None),
        *[("ARBOR_ADMIN_KEY", "api_keys-create", "POST", 201, None)] * 3,
    ]
    newest = events["items"][0]
    assert newest["api_key_id"] == reader["id"]
    assert newest["target"] == {"kb": kb}
    assert newest["path"] == f"/v1/knowledge-bases/{kb}"
    only = await client.get(
        "/v1/audit", params={"operation": "documents-create"}, headers=bearer(admin)
    )
    assert [e["operation"] for e in only.json()["items"]] == ["documents-create"]
    # Readable by admins only.
    assert (await client.get("/v1/audit", headers=bearer(writer["key"]))).status_code == 403


async def test_key_management_is_recorded_in_the_managed_project(
    client: httpx.AsyncClient,
) -> None:
    await create_project(client, "acme")
    acme_admin = (await create_key(client, "acme", scopes=["admin"]))["key"]
    # Made by the configured admin (acting in `default`), recorded in acme's log.
    events = (await client.get("/v1/audit", headers=bearer(acme_admin))).json()["items"]
    assert [(e["actor"], e["operation"]) for e in events] == [
        ("ARBOR_ADMIN_KEY", "api_keys-create")
    ]


async def test_pages_walk_every_event_newest_first(client: httpx.AsyncClient) -> None:
    await create_project(client, "acme")
    admin = (await create_key(client, "acme", scopes=["admin"]))["key"]
    for n in range(7):
        response = await client.post(
            "/v1/knowledge-bases", json={"name": f"kb-{n}"}, headers=bearer(admin)
        )
        assert response.status_code == 201
    seen: list[str] = []
    cursor = None
    while True:
        params = {"limit": 3} | ({"cursor": cursor} if cursor else {})
        page = (await client.get("/v1/audit", params=params, headers=bearer(admin))).json()
        seen += [e["id"] for e in page["items"]]
        assert page["total"] == 8  # seven creations and the key's own creation
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) == 8
    bad = await client.get("/v1/audit", params={"cursor": "bm9wZQ"}, headers=bearer(admin))
    assert bad.status_code == 422


async def test_retention_prunes_old_events(client: httpx.AsyncClient, app: FastAPI) -> None:
    project = await create_project(client, "acme")
    admin = (await create_key(client, "acme", scopes=["admin"]))["key"]
    async with app.state.database.transaction() as session:
        for age in (10, 100, 400):
            await session.execute(
                text(
                    "INSERT INTO audit_events (id, project_id, created_at, actor, operation, "
                    "method, path, status) VALUES (:id, :p, now() - make_interval(days => :d), "
                    "'old', 'knowledge_bases-create', 'POST', '/v1/knowledge-bases', 201)"
                ),
                {"id": uuid.uuid4(), "p": uuid.UUID(project["id"]), "d": age},
            )
    assert await prune(app.state.database, retention_days=0) == 0
    assert await prune(app.state.database, retention_days=90) == 2
    events = (await client.get("/v1/audit", headers=bearer(admin))).json()["items"]
    assert sorted(e["actor"] for e in events) == ["ARBOR_ADMIN_KEY", "old"]


async def test_a_search_is_audited_when_its_analytics_rows_cannot_be_written(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The analytics rows commit with the audit event; their failure must not take it along."""
    await create_project(client, "acme")
    admin = (await create_key(client, "acme", scopes=["admin"]))["key"]
    kb = await client.post("/v1/knowledge-bases", json={"name": "kb"}, headers=bearer(admin))
    kb_id = kb.json()["id"]
    await upload(client, admin, kb_id, "# Audit\n\nEvery search leaves a trace.")

    async def broken(session: AsyncSession, rows: list[dict[str, Any]], *, durable: bool) -> None:
        raise ValueError("analytics rows rejected")

    monkeypatch.setattr(analytics, "add", broken)
    before = metrics.ANALYTICS_DROPPED._value.get()
    found = await client.post(
        f"/v1/knowledge-bases/{kb_id}/search",
        json={"query": "search trace", "mode": "text"},
        headers=bearer(admin),
    )
    assert found.status_code == 200
    assert metrics.ANALYTICS_DROPPED._value.get() == before + 1
    events = (await client.get("/v1/audit", headers=bearer(admin))).json()["items"]
    assert [(e["operation"], e["hits"]) for e in events[:1]] == [
        ("search-knowledge_base", len(found.json()["hits"]))
    ]
