"""Client chunk ids equal to the ids ingestion generates (`app/documents/chunk_ids.py`) never stop a
document from being reindexed, and the client's chunks survive it."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from app.documents.chunk_ids import DERIVED_CANDIDATES, chunk_id
from tests.helpers import wait_ready

KB = "/v1/knowledge-bases/kb"
TEXT = "# Leave\n\nTwenty-five days of paid leave a year.\n\n# Canteen\n\nOpen at noon."


async def make_kb(client: httpx.AsyncClient, name: str) -> None:
    created = await client.post("/v1/knowledge-bases", json={"name": name})
    assert created.status_code == 201, created.text


async def upload(client: httpx.AsyncClient) -> dict[str, Any]:
    response = await client.post(
        f"{KB}/documents", params={"wait": "true"}, json={"text": TEXT, "external_id": "leave"}
    )
    assert response.status_code in (200, 201), response.text
    document: dict[str, Any] = response.json()
    assert document["status"] == "ready", document
    return document


async def chunk_ids_of(client: httpx.AsyncClient, kb: str, doc: str) -> list[str]:
    page = (await client.get(f"{kb}/chunks", params={"doc_id": doc, "limit": 100})).json()
    return [chunk["chunk_id"] for chunk in page["items"]]


async def reindexed(client: httpx.AsyncClient, doc: str) -> dict[str, Any]:
    response = await client.post(f"{KB}/documents/{doc}/reindex")
    assert response.status_code == 202, response.text
    return await wait_ready(client, f"{KB}/documents/{doc}", timeout_s=20)


async def test_a_chunk_moved_away_under_its_generated_id_does_not_break_a_reindex(
    client: httpx.AsyncClient,
) -> None:
    await make_kb(client, "kb")
    document = await upload(client)
    doc = uuid.UUID(document["id"])
    taken = str(chunk_id(doc, 0))
    assert taken in await chunk_ids_of(client, KB, document["id"])
    # A client writes its own chunk under that id, in another document: the chunk moves.
    put = await client.put(f"{KB}/chunks/{taken}", json={"text": "Mine.", "doc_id": "mine"})
    assert put.status_code in (200, 201), put.text
    # An id the document will generate once it has more chunks is taken too.
    future = str(chunk_id(doc, 50))
    put = await client.put(f"{KB}/chunks/{future}", json={"text": "Later.", "doc_id": "mine"})
    assert put.status_code == 201, put.text

    again = await reindexed(client, document["id"])
    assert again["status"] == "ready", again
    assert again["chunk_count"] == document["chunk_count"]
    ids = await chunk_ids_of(client, KB, document["id"])
    assert len(ids) == document["chunk_count"]
    assert taken not in ids
    # The client's chunks are its own still.
    assert set(await chunk_ids_of(client, KB, "mine")) == {taken, future}
    assert (await client.get(f"{KB}/chunks/{taken}")).json()["text"] == "Mine."
    # Ids stay stable: another reindex gives the document the same ones.
    assert (await reindexed(client, document["id"]))["status"] == "ready"
    assert await chunk_ids_of(client, KB, document["id"]) == ids


async def test_a_chunk_id_taken_in_another_knowledge_base_is_the_documents_still(
    client: httpx.AsyncClient,
) -> None:
    """Chunk ids are unique within a knowledge base: another one holding the same id takes
    nothing from this one, and neither chunk sees the other."""
    await make_kb(client, "kb")
    await make_kb(client, "other")
    document = await upload(client)
    taken = str(chunk_id(uuid.UUID(document["id"]), 0))
    other = "/v1/knowledge-bases/other"
    put = await client.put(f"{other}/chunks/{taken}", json={"text": "Theirs.", "doc_id": "x"})
    assert put.status_code == 201, put.text

    again = await reindexed(client, document["id"])
    assert again["status"] == "ready", again
    assert again["chunk_count"] == document["chunk_count"]
    assert taken in await chunk_ids_of(client, KB, document["id"])
    assert (await client.get(f"{other}/chunks/{taken}")).json()["text"] == "Theirs."
    ours = (await client.get(f"{KB}/chunks/{taken}")).json()
    assert ours["doc_id"] == document["id"]
    assert ours["text"] != "Theirs."
    # Deleting one knowledge base's chunk leaves the other's.
    assert (await client.delete(f"{other}/documents/x/chunks")).status_code == 200
    assert (await client.get(f"{KB}/chunks/{taken}")).status_code == 200
    assert (await client.get(f"{other}/chunks/{taken}")).status_code == 404


async def test_every_derived_id_taken_still_leaves_the_document_an_id(
    client: httpx.AsyncClient,
) -> None:
    """The stand-ins are computable too: one who takes them all gets a random id used."""
    await make_kb(client, "kb")
    document = await upload(client)
    doc = uuid.UUID(document["id"])
    taken = [str(chunk_id(doc, 0, candidate)) for candidate in range(DERIVED_CANDIDATES + 1)]
    bulk = [{"chunk_id": i, "text": "Mine.", "doc_id": "mine"} for i in taken]
    response = await client.post(f"{KB}/chunks/bulk", json={"chunks": bulk})
    assert response.status_code == 200, response.text

    again = await reindexed(client, document["id"])
    assert again["status"] == "ready", again
    ids = await chunk_ids_of(client, KB, document["id"])
    assert len(ids) == document["chunk_count"]
    assert not set(ids) & set(taken)
    assert sorted(await chunk_ids_of(client, KB, "mine")) == sorted(taken)
