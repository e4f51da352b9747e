"""Vectors are reused for a text only where the same model computed them, never a client's."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import numpy as np
import pytest

from app.chunks.embedding import embedding_input
from tests.fakes import FakeEmbedders
from tests.helpers import wait_ready

TEXT = "submarine periscope depth"


def random_vector(seed: int, dimensions: int = 384) -> list[float]:
    vector = np.random.default_rng(seed).standard_normal(dimensions)
    return [float(x) for x in vector / np.linalg.norm(vector)]


async def create_kb(client: httpx.AsyncClient, name: str, **extra: Any) -> str:
    response = await client.post("/v1/knowledge-bases", json={"name": name, **extra})
    assert response.status_code == 201, response.text
    return f"/v1/knowledge-bases/{name}"


async def vector_of(client: httpx.AsyncClient, base: str, chunk_id: str) -> list[float]:
    chunk = (await client.get(f"{base}/chunks/{chunk_id}", params={"include_vector": 1})).json()
    vector: list[float] = chunk["vector"]
    return vector


def calls(embedders: FakeEmbedders, dimensions: int = 384) -> list[str]:
    return [text for batch in embedders.by_dimensions[dimensions].calls for text in batch]


async def test_supplied_vectors_are_not_reused_by_the_chunk_api_or_ingestion(
    client: httpx.AsyncClient, embedders: FakeEmbedders
) -> None:
    c1 = await create_kb(client, "c1")
    c3 = await create_kb(client, "c3")
    supplied = random_vector(1)
    put = await client.put(
        f"{c1}/chunks/11111111-1111-4111-8111-111111111111",
        json={"text": TEXT, "doc_id": "a", "vector": supplied},
    )
    assert put.status_code == 201, put.text
    bulk = await client.post(
        f"{c1}/chunks/bulk",
        json={"chunks": [{"text": "bulk text", "doc_id": "a", "vector": random_vector(2)}]},
    )
    assert bulk.status_code == 200, bulk.text

    # The same text in another knowledge base of the same model, by PUT and by bulk.
    put = await client.put(
        f"{c3}/chunks/22222222-2222-4222-8222-222222222222", json={"text": TEXT, "doc_id": "b"}
    )
    assert put.status_code == 201, put.text
    bulk = await client.post(
        f"{c3}/chunks/bulk", json={"chunks": [{"text": "bulk text", "doc_id": "b"}]}
    )
    assert bulk.json()["embedded"] == 1
    embedder = embedders.by_dimensions[384]
    expected = embedder.vector(TEXT).tolist()
    assert await vector_of(client, c3, "22222222-2222-4222-8222-222222222222") == pytest.approx(
        expected, abs=1e-6
    )
    bulk_vector = await vector_of(client, c3, bulk.json()["chunk_ids"][0])
    assert bulk_vector == pytest.approx(embedder.vector("bulk text").tolist(), abs=1e-6)

    # And an uploaded document with that text.
    uploaded = await client.post(
        f"{c3}/documents", params={"wait": "true"}, json={"text": TEXT, "format": "text"}
    )
    document = await wait_ready(client, f"{c3}/documents/{uploaded.json()['id']}")
    chunks = await client.get(
        f"{c3}/documents/{document['id']}/chunks", params={"include_vector": 1}
    )
    (chunk,) = chunks.json()["items"]
    assert chunk["text"] == TEXT
    assert chunk["vector"] == pytest.approx(expected, abs=1e-6)
    # The client's own chunk keeps its own vector.
    assert await vector_of(client, c1, "11111111-1111-4111-8111-111111111111") == pytest.approx(
        supplied, abs=1e-6
    )


async def test_computed_vectors_are_reused_across_knowledge_bases(
    client: httpx.AsyncClient, embedders: FakeEmbedders
) -> None:
    c1 = await create_kb(client, "c1")
    c3 = await create_kb(client, "c3")
    await client.put(f"{c1}/chunks/{uuid.uuid4()}", json={"text": TEXT, "doc_id": "a"})
    assert calls(embedders) == [TEXT]
    put = await client.put(f"{c3}/chunks/{uuid.uuid4()}", json={"text": TEXT, "doc_id": "b"})
    assert put.json()["embedded"] is True
    assert calls(embedders) == [TEXT]


async def test_a_chunk_replaced_with_a_supplied_vector_is_no_longer_reused(
    client: httpx.AsyncClient, embedders: FakeEmbedders
) -> None:
    """The flag follows the vector through an upsert of the same id."""
    c1 = await create_kb(client, "c1")
    c3 = await create_kb(client, "c3")
    chunk_id = uuid.uuid4()
    await client.put(f"{c1}/chunks/{chunk_id}", json={"text": TEXT, "doc_id": "a"})
    await client.put(
        f"{c1}/chunks/{chunk_id}", json={"text": TEXT, "doc_id": "a", "vector": random_vector(3)}
    )
    other = uuid.uuid4()
    await client.put(f"{c3}/chunks/{other}", json={"text": TEXT, "doc_id": "b"})
    assert calls(embedders) == [TEXT, TEXT]
    expected = embedders.by_dimensions[384].vector(TEXT).tolist()
    assert await vector_of(client, c3, str(other)) == pytest.approx(expected, abs=1e-6)


async def test_vectors_of_a_backfill_are_reused(
    client: httpx.AsyncClient, embedders: FakeEmbedders
) -> None:
    c1 = await create_kb(client, "c1")
    c3 = await create_kb(client, "c3")
    embedders.down = True
    put = await client.put(f"{c1}/chunks/{uuid.uuid4()}", json={"text": TEXT, "doc_id": "a"})
    assert put.json()["embedded"] is False
    embedders.down = False
    started = await client.post(f"{c1}/chunks/embed")
    job_url = f"{c1}/jobs/{started.json()['job']['id']}"
    for _ in range(200):
        job = (await client.get(job_url)).json()
        if job["status"] in ("succeeded", "failed"):
            break
        await asyncio.sleep(0.05)
    assert job["status"] == "succeeded", job
    assert calls(embedders) == [TEXT]
    await client.put(f"{c3}/chunks/{uuid.uuid4()}", json={"text": TEXT, "doc_id": "b"})
    assert calls(embedders) == [TEXT]


async def test_another_endpoint_is_another_model(
    client: httpx.AsyncClient, embedders: FakeEmbedders
) -> None:
    """Two OpenAI-compatible servers may serve different models under one name."""
    embedding = {"provider": "openai", "model": "m", "dimensions": 8}
    one = await create_kb(
        client, "one", embedding={**embedding, "base_url": "http://one.example/v1"}
    )
    two = await create_kb(
        client, "two", embedding={**embedding, "base_url": "http://two.example/v1"}
    )
    same = await create_kb(
        client, "same", embedding={**embedding, "base_url": "http://one.example/v1"}
    )
    for base in (one, two, same):
        put = await client.put(f"{base}/chunks/{uuid.uuid4()}", json={"text": TEXT, "doc_id": "a"})
        assert put.json()["embedded"] is True
    # `two` computed it again; `same` reused `one`'s.
    assert calls(embedders, 8) == [TEXT, TEXT]


async def test_chunks_are_embedded_under_their_title_and_section_path(
    client: httpx.AsyncClient, embedders: FakeEmbedders
) -> None:
    """The model reads a chunk's context header; its stored text stays the document's words,
    and the reuse key follows what the model read."""
    base = await create_kb(client, "c1")
    uploaded = await client.post(
        f"{base}/documents",
        params={"wait": "true"},
        json={"text": "# Dosage\n\nTwo tablets a day.", "title": "Aspirin", "format": "markdown"},
    )
    document = await wait_ready(client, f"{base}/documents/{uploaded.json()['id']}")
    (chunk,) = (await client.get(f"{base}/documents/{document['id']}/chunks")).json()["items"]
    assert "Aspirin" not in chunk["text"]
    (read,) = calls(embedders)
    assert read.startswith("Aspirin\n")
    assert read.endswith(chunk["text"])

    # The same text under another title is another input: embedded again, not reused.
    put = await client.put(
        f"{base}/chunks/{uuid.uuid4()}",
        json={"text": chunk["text"], "doc_id": "b", "doc_title": "Ibuprofen"},
    )
    assert put.json()["embedded"] is True
    assert calls(embedders)[-1] == f"Ibuprofen\n\n{chunk['text']}"
    # A backfill reads the same header as the chunk API.
    embedders.down = True
    await client.put(
        f"{base}/chunks/{uuid.uuid4()}",
        json={"text": TEXT, "doc_id": "c", "doc_title": "Manual", "section_titles": ["Depth"]},
    )
    embedders.down = False
    started = await client.post(f"{base}/chunks/embed")
    job_url = f"{base}/jobs/{started.json()['job']['id']}"
    for _ in range(200):
        if (await client.get(job_url)).json()["status"] in ("succeeded", "failed"):
            break
        await asyncio.sleep(0.05)
    assert calls(embedders)[-1] == f"Manual\nDepth\n\n{TEXT}"


async def test_the_context_header_can_be_turned_off(
    client: httpx.AsyncClient, embedders: FakeEmbedders
) -> None:
    base = await create_kb(client, "c1", chunking={"context_header": False})
    uploaded = await client.post(
        f"{base}/documents",
        params={"wait": "true"},
        json={"text": TEXT, "title": "Manual", "format": "text"},
    )
    await wait_ready(client, f"{base}/documents/{uploaded.json()['id']}")
    assert calls(embedders) == [TEXT]


def test_the_header_leaves_out_what_the_text_already_says() -> None:
    assert embedding_input("Aspirin dosage. Two a day.", title="Aspirin", section_titles=[]) == (
        "Aspirin dosage. Two a day."
    )
    assert embedding_input("Two a day.", title="Aspirin", section_titles=["Aspirin", "Dosage"]) == (
        "Aspirin\nDosage\n\nTwo a day."
    )
    assert embedding_input("Two a day.", title=None, section_titles=["Use", "Dosage"]) == (
        "Use > Dosage\n\nTwo a day."
    )
    assert embedding_input("Two a day.", title="Aspirin", section_titles=[], header=False) == (
        "Two a day."
    )
