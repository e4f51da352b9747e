"""Chunk ids are unique within a knowledge base: an id held in another one, of this project
or another, is free here, and writing it here changes nothing there."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from tests.auth.helpers import bearer, create_key, create_project

NO_EMBEDDER = {"provider": "none", "dimensions": 4}


async def keys_with_knowledge_bases(
    client: httpx.AsyncClient, project: str, *names: str
) -> dict[str, str]:
    """A write and an admin key of a new project holding knowledge bases `names`."""
    await create_project(client, project)
    keys = {
        scope: (await create_key(client, project, scopes=[scope]))["key"]
        for scope in ("write", "admin")
    }
    for name in names:
        response = await client.post(
            "/v1/knowledge-bases",
            json={"name": name, "embedding": NO_EMBEDDER},
            headers=bearer(keys["write"]),
        )
        assert response.status_code == 201, response.text
    return keys


async def put_chunk(
    client: httpx.AsyncClient, key: str, kb: str, chunk_id: str, text: str
) -> httpx.Response:
    return await client.put(
        f"/v1/knowledge-bases/{kb}/chunks/{chunk_id}",
        json={"doc_id": "d", "text": text},
        headers=bearer(key),
    )


async def audited(client: httpx.AsyncClient, admin: str) -> list[dict[str, Any]]:
    response = await client.get("/v1/audit", params={"limit": 200}, headers=bearer(admin))
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


async def test_an_id_held_in_another_knowledge_base_is_free_here_and_untouched_there(
    client: httpx.AsyncClient,
) -> None:
    alpha = await keys_with_knowledge_bases(client, "alpha", "kb", "other")
    beta = await keys_with_knowledge_bases(client, "beta", "kb")
    sibling, foreign = str(uuid.uuid4()), str(uuid.uuid4())
    assert (await put_chunk(client, alpha["write"], "other", sibling, "alpha's")).status_code == 201
    assert (await put_chunk(client, beta["write"], "kb", foreign, "beta's")).status_code == 201

    # Nothing tells a caller whether an id exists elsewhere: both are simply new here.
    for taken in (sibling, foreign):
        written = await put_chunk(client, alpha["write"], "kb", taken, "mine")
        assert written.status_code == 201, written.text
    bulk = await client.post(
        "/v1/knowledge-bases/kb/chunks/bulk",
        json={
            "chunks": [
                {"chunk_id": t, "doc_id": "d", "text": "mine, again"} for t in (sibling, foreign)
            ]
        },
        headers=bearer(alpha["write"]),
    )
    assert bulk.status_code == 200, bulk.text
    assert sorted(bulk.json()["chunk_ids"]) == sorted([sibling, foreign])

    # The holders elsewhere kept their chunks.
    kept = await client.get(
        f"/v1/knowledge-bases/other/chunks/{sibling}", headers=bearer(alpha["write"])
    )
    assert kept.json()["text"] == "alpha's"
    kept = await client.get(
        f"/v1/knowledge-bases/kb/chunks/{foreign}", headers=bearer(beta["write"])
    )
    assert kept.json()["text"] == "beta's"
    count = await client.get("/v1/knowledge-bases/kb/chunks/count", headers=bearer(alpha["write"]))
    assert count.json()["count"] == 2
    for taken in (sibling, foreign):
        mine = await client.get(
            f"/v1/knowledge-bases/kb/chunks/{taken}", headers=bearer(alpha["write"])
        )
        assert mine.json()["text"] == "mine, again"
    assert all(event["status"] < 400 for event in await audited(client, alpha["admin"]))
    assert all(event["status"] < 400 for event in await audited(client, beta["admin"]))
