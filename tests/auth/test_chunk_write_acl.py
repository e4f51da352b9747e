"""Chunk writes stop where reading stops: no chunk of an unreadable document is taken over."""

from __future__ import annotations

from typing import Any

import httpx

from tests.auth.helpers import bearer, create_key, create_project, upload

ANN = {"principals": ["user:ann"]}


async def setup(client: httpx.AsyncClient) -> dict[str, Any]:
    """Ann's private document in a knowledge base Bob may write to."""
    await create_project(client, "acme")
    ann = (await create_key(client, "acme", scopes=["write"], principals=["user:ann"]))["key"]
    bob = (await create_key(client, "acme", scopes=["write"], principals=["user:bob"]))["key"]
    created = await client.post("/v1/knowledge-bases", json={"name": "kb"}, headers=bearer(ann))
    assert created.status_code == 201, created.text
    document = await upload(
        client, ann, "kb", "Ann's salary review notes.", access=ANN, external_id="ann"
    )
    chunks = await client.get(
        f"/v1/knowledge-bases/kb/documents/{document['id']}/chunks", headers=bearer(ann)
    )
    return {"ann": ann, "bob": bob, "doc": document, "chunk": chunks.json()["items"][0]}


async def ann_sees(client: httpx.AsyncClient, world: dict[str, Any]) -> list[str]:
    page = await client.get(
        f"/v1/knowledge-bases/kb/documents/{world['doc']['id']}/chunks",
        headers=bearer(world["ann"]),
    )
    return [chunk["text"] for chunk in page.json()["items"]]


async def test_a_chunk_id_of_an_unreadable_document_is_in_use(client: httpx.AsyncClient) -> None:
    world = await setup(client)
    chunk_id = world["chunk"]["chunk_id"]
    base = "/v1/knowledge-bases/kb/chunks"
    stolen = {"text": "Bob was here.", "doc_id": "bobs"}
    put = await client.put(f"{base}/{chunk_id}", json=stolen, headers=bearer(world["bob"]))
    bulk = await client.post(
        f"{base}/bulk",
        json={"chunks": [{**stolen, "chunk_id": chunk_id}]},
        headers=bearer(world["bob"]),
    )
    for response in (put, bulk):
        assert response.status_code == 409, response.text
        assert response.json()["type"].endswith("/chunk-id-in-use")
    assert await ann_sees(client, world) == ["Ann's salary review notes."]
    # Ann herself may move her chunk.
    moved = await client.put(f"{base}/{chunk_id}", json=stolen, headers=bearer(world["ann"]))
    assert moved.status_code == 200, moved.text


async def test_an_unreadable_document_takes_no_chunks(client: httpx.AsyncClient) -> None:
    world = await setup(client)
    base = "/v1/knowledge-bases/kb/chunks"
    by_external_id = await client.post(
        f"{base}/bulk",
        json={"chunks": [{"text": "injected", "doc_id": "ann"}]},
        headers=bearer(world["bob"]),
    )
    assert by_external_id.status_code == 409, by_external_id.text
    # Not a new document of that name either: the chunks meant for a private document would
    # be public in it.
    by_id = await client.post(
        f"{base}/bulk",
        json={"chunks": [{"text": "injected", "doc_id": world["doc"]["id"]}]},
        headers=bearer(world["bob"]),
    )
    assert by_id.status_code == 409, by_id.text
    listed = await client.get("/v1/knowledge-bases/kb/documents", headers=bearer(world["bob"]))
    assert listed.json()["total"] == 0
    assert await ann_sees(client, world) == ["Ann's salary review notes."]


async def test_an_import_never_takes_over_chunk_ids(client: httpx.AsyncClient) -> None:
    world = await setup(client)
    docs = "/v1/knowledge-bases/kb/documents"
    exported = await client.get(f"{docs}/ann/export", headers=bearer(world["ann"]))
    body = {**exported.json(), "external_id": "copy"}
    for key in ("ann", "bob"):
        response = await client.post(
            f"{docs}/import",
            params={"keep_chunk_ids": "true"},
            json=body,
            headers=bearer(world[key]),
        )
        assert response.status_code == 409, response.text
        assert response.json()["type"].endswith("/chunk-id-in-use")
    assert await ann_sees(client, world) == ["Ann's salary review notes."]


async def test_wholesale_deletes_refuse_what_they_cannot_read(client: httpx.AsyncClient) -> None:
    world = await setup(client)
    cleared = await client.delete("/v1/knowledge-bases/kb/chunks", headers=bearer(world["bob"]))
    dropped = await client.delete("/v1/knowledge-bases/kb", headers=bearer(world["bob"]))
    for response in (cleared, dropped):
        assert response.status_code == 403, response.text
        assert "cannot read" in response.json()["detail"]
    assert await ann_sees(client, world) == ["Ann's salary review notes."]
    # Ann reads everything in it: both are hers to do.
    assert (
        await client.delete("/v1/knowledge-bases/kb/chunks", headers=bearer(world["ann"]))
    ).is_success
    assert await ann_sees(client, world) == []
    assert (
        await client.delete("/v1/knowledge-bases/kb", headers=bearer(world["ann"]))
    ).status_code == 204
