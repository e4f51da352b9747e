"""Chunk ids are one global key: a taken id is refused the same way wherever its holder lives."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from app.kit.errors import PROBLEM_BASE
from tests.auth.helpers import PROBLEM, bearer, create_key, create_project

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


async def test_a_taken_chunk_id_is_refused_alike_in_this_project_and_another(
    client: httpx.AsyncClient,
) -> None:
    alpha = await keys_with_knowledge_bases(client, "alpha", "kb", "other")
    beta = await keys_with_knowledge_bases(client, "beta", "kb")
    sibling, foreign = str(uuid.uuid4()), str(uuid.uuid4())
    assert (await put_chunk(client, alpha["write"], "other", sibling, "alpha's")).status_code == 201
    assert (await put_chunk(client, beta["write"], "kb", foreign, "beta's")).status_code == 201

    near = await put_chunk(client, alpha["write"], "kb", sibling, "hijack")
    far = await put_chunk(client, alpha["write"], "kb", foreign, "hijack")

    assert near.status_code == far.status_code == 409
    assert near.headers["content-type"] == PROBLEM
    problem = near.json()
    assert problem["type"] == PROBLEM_BASE + "chunk-id-in-use"
    assert "another knowledge base" not in problem["detail"]
    # Byte for byte the same, once the request's own path (the instance) is swapped.
    assert near.content.replace(sibling.encode(), foreign.encode()) == far.content
    # Every header too, but the request id each response carries.
    assert headers_of(near) == headers_of(far)

    bulks = [
        await client.post(
            "/v1/knowledge-bases/kb/chunks/bulk",
            json={"chunks": [{"chunk_id": taken, "doc_id": "d", "text": "hijack"}]},
            headers=bearer(alpha["write"]),
        )
        for taken in (sibling, foreign)
    ]
    assert [bulk.status_code for bulk in bulks] == [409, 409]
    assert bulks[0].content == bulks[1].content
    assert headers_of(bulks[0]) == headers_of(bulks[1])
    assert bulks[0].json()["type"] == problem["type"]

    # Nothing was overwritten or added.
    kept = await client.get(
        f"/v1/knowledge-bases/other/chunks/{sibling}", headers=bearer(alpha["write"])
    )
    assert kept.json()["text"] == "alpha's"
    kept = await client.get(
        f"/v1/knowledge-bases/kb/chunks/{foreign}", headers=bearer(beta["write"])
    )
    assert kept.json()["text"] == "beta's"
    count = await client.get("/v1/knowledge-bases/kb/chunks/count", headers=bearer(alpha["write"]))
    assert count.json()["count"] == 0

    # The audit log tells the two apart no better: alpha's events differ only in the path.
    refused = [event for event in await audited(client, alpha["admin"]) if event["status"] == 409]
    assert len(refused) == 4
    for event in refused:
        del event["id"], event["created_at"]
        event["path"] = event["path"].replace(sibling, foreign)
        event["target"] = {k: v.replace(sibling, foreign) for k, v in event["target"].items()}
    assert refused[3] == refused[2]  # the PUTs, oldest last
    assert refused[1] == refused[0]  # the bulks
    assert all(event["status"] < 400 for event in await audited(client, beta["admin"]))


def headers_of(response: httpx.Response) -> dict[str, str]:
    """A response's headers but its X-Request-ID, which differs for every request."""
    return {k: v for k, v in response.headers.items() if k != "x-request-id"}
