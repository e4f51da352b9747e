"""A knowledge base copied into one of another model: documents chunked and embedded again."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.fakes import FakeEmbedders

FILLER = "Each rule here has a reason, an owner and a date when it was last reviewed. " * 8
HANDBOOK = (
    f"# Handbook\n\nWho this handbook is for. {FILLER}\n\n"
    f"## Leave\n\nTwenty-five days of paid leave a year, booked in the leave planner. {FILLER}\n"
)


async def ready_documents(client: httpx.AsyncClient, kb: str, *, expect: int) -> list[Any]:
    """The knowledge base's documents once all `expect` of them are ready (10 s at most)."""
    for _ in range(200):
        page = (await client.get(f"/v1/knowledge-bases/{kb}/documents")).json()
        if page["total"] == expect and all(d["status"] == "ready" for d in page["items"]):
            return list(page["items"])
        await asyncio.sleep(0.05)
    raise AssertionError(f"not ready: {page}")


async def test_a_copy_has_the_new_model_and_the_same_documents(
    client: httpx.AsyncClient, embedders: FakeEmbedders
) -> None:
    await client.post("/v1/knowledge-bases", json={"name": "old"})
    uploaded = await client.post(
        "/v1/knowledge-bases/old/documents",
        params={"wait": "true"},
        json={"text": HANDBOOK, "external_id": "handbook", "metadata": {"team": "hr"}},
    )
    assert uploaded.json()["status"] == "ready", uploaded.text
    loose = [{"text": f"loose note {i}", "doc_id": "notes"} for i in range(3)]
    assert (
        await client.post("/v1/knowledge-bases/old/chunks/bulk", json={"chunks": loose})
    ).is_success
    # Imported without a tree: its tree is SQL NULL, as a chunk-API document's is.
    imported = await client.post(
        "/v1/knowledge-bases/old/documents/import",
        json={"external_id": "imported", "chunks": [{"text": "an imported note"}]},
    )
    assert imported.status_code == 201, imported.text
    old_chunks = (await client.get("/v1/knowledge-bases/old/chunks/count")).json()["count"]

    copied = await client.post(
        "/v1/knowledge-bases/old/copy",
        json={
            "name": "new",
            "embedding": {"provider": "openai", "model": "fake-large", "dimensions": 8},
        },
    )
    assert copied.status_code == 202, copied.text
    body = copied.json()
    assert (body["documents"], body["queued"], body["chunks_to_embed"]) == (3, 1, 4)
    assert body["knowledge_base"]["embedding"]["dimensions"] == 8
    assert copied.headers["location"] == f"/v1/knowledge-bases/{body['knowledge_base']['id']}"

    documents = await ready_documents(client, "new", expect=3)
    assert {d["external_id"] for d in documents} == {"handbook", "notes", "imported"}
    # Every copied document is announced once, those without a tree too.
    events = (await client.get("/v1/events", params={"type": "document.ready"})).json()
    copies = {d["id"] for d in documents}
    announced = [e["data"]["id"] for e in events["items"] if e["data"]["id"] in copies]
    assert sorted(announced) == sorted(copies)
    count = (await client.get("/v1/knowledge-bases/new/chunks/count")).json()
    for _ in range(200):  # the embed job of the chunk API's chunks
        if count["not_embedded"] == 0:
            break
        await asyncio.sleep(0.05)
        count = (await client.get("/v1/knowledge-bases/new/chunks/count")).json()
    assert (count["count"], count["not_embedded"]) == (old_chunks, 0)
    page = await client.get("/v1/knowledge-bases/new/chunks", params={"include_vector": "true"})
    assert {len(chunk["vector"]) for chunk in page.json()["items"]} == {8}

    found = await client.post(
        "/v1/knowledge-bases/new/search",
        json={"query": "paid leave planner", "filter": {"metadata.team": "hr"}},
    )
    assert found.json()["mode"] == "hybrid"
    # Hash vectors rank at random: the text side must have found it.
    assert any("Twenty-five days" in hit["text"] for hit in found.json()["hits"])
    # The source is untouched.
    source = (await client.get("/v1/knowledge-bases/old")).json()
    assert (source["document_count"], source["chunk_count"]) == (3, old_chunks)
    assert source["embedding"]["dimensions"] == 384


async def test_a_copy_is_refused_whole(client: httpx.AsyncClient) -> None:
    await client.post("/v1/knowledge-bases", json={"name": "old"})
    taken = await client.post("/v1/knowledge-bases/old/copy", json={"name": "old"})
    assert taken.status_code == 409
    bad = await client.post(
        "/v1/knowledge-bases/old/copy",
        json={"name": "new", "embedding": {"provider": "openai", "dimensions": 8}},
    )
    assert bad.status_code == 422  # an OpenAI-compatible model needs a name
    assert (await client.get("/v1/knowledge-bases/new")).status_code == 404
    missing = await client.post("/v1/knowledge-bases/nope/copy", json={"name": "other"})
    assert missing.status_code == 404
    # Refused up front: otherwise every copied document would fail in the background.
    await client.post(
        "/v1/knowledge-bases/old/documents", params={"wait": "true"}, json={"text": "# Notes"}
    )
    rows = await client.post(
        "/v1/knowledge-bases/old/copy",
        json={"name": "rows", "chunking": {"strategy": "csv_rows"}},
    )
    assert rows.status_code == 422
    assert "the copy would chunk others (1 markdown)" in rows.json()["detail"]
    assert (await client.get("/v1/knowledge-bases/rows")).status_code == 404
