"""Who may read metrics and analytics, and whose rights an evaluation searches with."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.auth.helpers import bearer, create_key, create_project, upload

SECRET = {"principals": ["group:secret"]}


async def test_metrics_need_the_admin_scope(client: httpx.AsyncClient) -> None:
    await create_project(client, "acme")
    read = (await create_key(client, "acme", scopes=["read"]))["key"]
    admin = (await create_key(client, "acme", scopes=["admin"]))["key"]
    assert (await client.get("/metrics")).status_code == 401
    forbidden = await client.get("/metrics", headers=bearer(read))
    assert forbidden.status_code == 403
    assert forbidden.headers["content-type"] == "application/problem+json"
    allowed = await client.get("/metrics", headers=bearer(admin))
    assert allowed.status_code == 200
    assert "arbor_http_requests_total" in allowed.text


async def test_analytics_need_the_admin_scope_of_the_project(client: httpx.AsyncClient) -> None:
    await create_project(client, "acme")
    await create_project(client, "other")
    write = (await create_key(client, "acme", scopes=["write"]))["key"]
    admin = (await create_key(client, "acme", scopes=["admin"]))["key"]
    stranger = (await create_key(client, "other", scopes=["admin"]))["key"]
    kb = (
        await client.post("/v1/knowledge-bases", json={"name": "kb"}, headers=bearer(write))
    ).json()["id"]
    path = f"/v1/knowledge-bases/{kb}/analytics"
    assert (await client.get(path, headers=bearer(write))).status_code == 403
    assert (await client.get(path, headers=bearer(stranger))).status_code == 404
    assert (await client.get(path, headers=bearer(admin))).status_code == 200


async def evaluate(client: httpx.AsyncClient, key: str, kb: str) -> dict[str, Any]:
    response = await client.post(
        f"/v1/knowledge-bases/{kb}/evaluations",
        json={
            "queries": [{"_id": "q1", "text": "leave"}],
            "qrels": [
                {"query_id": "q1", "doc_id": "public", "score": 1},
                {"query_id": "q1", "doc_id": "secret", "score": 1},
            ],
            "configurations": [{"name": "text", "mode": "text"}],
        },
        headers=bearer(key),
    )
    assert response.status_code == 202, response.text
    for _ in range(600):
        body = (
            await client.get(
                f"/v1/knowledge-bases/{kb}/evaluations/{response.json()['id']}",
                headers=bearer(key),
            )
        ).json()
        if body["status"] in ("succeeded", "failed"):
            return dict(body)
        await asyncio.sleep(0.05)
    raise AssertionError("the evaluation did not finish")


async def test_an_evaluation_searches_with_its_callers_rights(client: httpx.AsyncClient) -> None:
    await create_project(client, "acme")
    write = (await create_key(client, "acme", scopes=["write"]))["key"]
    kb = (
        await client.post(
            "/v1/knowledge-bases",
            json={"name": "acl", "embedding": {"provider": "none", "dimensions": 4}},
            headers=bearer(write),
        )
    ).json()["id"]
    await upload(client, write, kb, "Annual leave, the public note.", external_id="public")
    await upload(
        client, write, kb, "Leave of the board, secret.", external_id="secret", access=SECRET
    )

    limited = await evaluate(client, write, kb)
    assert limited["status"] == "succeeded", limited
    result = limited["results"]
    row = result["configurations"][0]["queries"][0]
    assert row["retrieved"] == ["public"]
    assert row["recall_at_10"] == 0.5
    # The secret document is not even named: it counts as a judged document never found.
    assert result["unresolved_documents"] == 1

    admin = (await create_key(client, "acme", scopes=["admin"]))["key"]
    everything = await evaluate(client, admin, kb)
    row = everything["results"]["configurations"][0]["queries"][0]
    assert sorted(row["retrieved"]) == ["public", "secret"]
    assert row["recall_at_10"] == 1.0
    assert everything["results"]["unresolved_documents"] == 0

    read = (await create_key(client, "acme", scopes=["read"]))["key"]
    refused = await client.post(
        f"/v1/knowledge-bases/{kb}/evaluations",
        json={
            "queries": [{"_id": "q", "text": "x"}],
            "qrels": [{"query_id": "q", "doc_id": "public", "score": 1}],
        },
        headers=bearer(read),
    )
    assert refused.status_code == 403
    listed = await client.get(f"/v1/knowledge-bases/{kb}/evaluations", headers=bearer(read))
    assert listed.status_code == 200
    assert listed.json()["total"] == 2
