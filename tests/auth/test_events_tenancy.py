"""The event feed shows a caller only what it may read: its project, its knowledge bases, the
documents whose access lists admit it."""

from __future__ import annotations

from typing import Any

import httpx

from tests.auth.helpers import as_admin, bearer, create_key, create_project, upload


async def subjects(client: httpx.AsyncClient, headers: dict[str, str]) -> set[str]:
    response = await client.get("/v1/events", headers=headers)
    assert response.status_code == 200, response.text
    return {event["subject_id"] for event in response.json()["items"]}


async def make_kb(client: httpx.AsyncClient, key: str, name: str) -> dict[str, Any]:
    response = await client.post(
        "/v1/knowledge-bases",
        json={"name": name, "embedding": {"provider": "none", "dimensions": 4}},
        headers=bearer(key),
    )
    assert response.status_code == 201, response.text
    return dict(response.json())


async def test_events_follow_projects_knowledge_bases_and_access_lists(
    client: httpx.AsyncClient,
) -> None:
    for name in ("alpha", "beta"):
        await create_project(client, name)
    write = (await create_key(client, "alpha", scopes=["write"]))["key"]
    first = await make_kb(client, write, "first")
    second = await make_kb(client, write, "second")
    public = await upload(client, write, first["id"], "Open to the whole project.")
    secret = await upload(
        client, write, first["id"], "Only for HR.", access={"principals": ["group:hr"]}
    )
    other = await upload(client, write, second["id"], "In the second knowledge base.")
    keys = {
        name: (await create_key(client, "alpha", **body))["key"]
        for name, body in {
            "reader": {"scopes": ["read"]},
            "hr": {"scopes": ["read"], "principals": ["group:hr"]},
            "first only": {"scopes": ["read"], "knowledge_bases": [first["id"]]},
            "beta": {"scopes": ["read"]},
        }.items()
    }
    keys["beta"] = (await create_key(client, "beta", scopes=["read"]))["key"]
    everything = {first["id"], second["id"], public["id"], secret["id"], other["id"]}

    assert await subjects(client, as_admin("alpha")) == everything
    assert await subjects(client, bearer(keys["hr"])) == everything
    assert await subjects(client, bearer(keys["reader"])) == everything - {secret["id"]}
    assert await subjects(client, bearer(keys["first only"])) == {first["id"], public["id"]}
    assert await subjects(client, bearer(keys["beta"])) == set()
    # Deleting a knowledge base is an event of it, still bound by the key's limits.
    response = await client.delete(f"/v1/knowledge-bases/{second['id']}", headers=bearer(write))
    assert response.status_code == 204
    deleted = await client.get(
        "/v1/events", params={"type": "knowledge_base.deleted"}, headers=bearer(keys["reader"])
    )
    assert [e["subject_id"] for e in deleted.json()["items"]] == [second["id"]]
    assert await subjects(client, bearer(keys["first only"])) == {first["id"], public["id"]}
