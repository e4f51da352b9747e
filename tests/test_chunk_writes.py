"""Chunk writes and their documents: moves between documents, an embedder that is down,
listing by external id, and progress that agrees with the counts."""

from __future__ import annotations

import asyncio
import socket
import threading
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import httpx
import numpy as np
import pytest

from app.embeddings import OpenAICompatibleEmbedder
from app.models import KnowledgeBase
from tests.fakes import FakeEmbedders, HashEmbedder

KB = "/v1/knowledge-bases/kb"


def unit(hot: int, dimensions: int = 384) -> list[float]:
    vector = [0.0] * dimensions
    vector[hot] = 1.0
    return vector


def closed_port() -> int:
    """A local port nothing listens on: connecting is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class UnreachableEmbedders(FakeEmbedders):
    """The fakes, or, while `unreachable`, the real OpenAI-compatible client of a server that
    is not there (no retries: the failure is what matters, not the backoff)."""

    def __init__(self, port: int) -> None:
        super().__init__()
        self.unreachable = False
        self.remote = OpenAICompatibleEmbedder(
            f"http://127.0.0.1:{port}/v1", "sk-test", "m", 384, max_retries=0, timeout_s=5
        )

    def __call__(self, kb: KnowledgeBase) -> HashEmbedder | OpenAICompatibleEmbedder | None:
        if self.unreachable and kb.embedding_provider != "none":
            return self.remote
        return super().__call__(kb)


@pytest.fixture
def embedders() -> Iterator[UnreachableEmbedders]:
    factory = UnreachableEmbedders(closed_port())
    yield factory
    factory.remote.close()


@pytest.fixture
async def kb(client: httpx.AsyncClient) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).status_code == 201


async def document_counts(client: httpx.AsyncClient) -> dict[str, tuple[int, int]]:
    documents = (await client.get(f"{KB}/documents")).json()["items"]
    return {d["external_id"]: (d["chunk_count"], d["embedded_count"]) for d in documents}


async def assert_counts_add_up(client: httpx.AsyncClient) -> None:
    counts = await document_counts(client)
    total = (await client.get(f"{KB}/chunks/count")).json()
    assert sum(chunks for chunks, _ in counts.values()) == total["count"]
    assert sum(embedded for _, embedded in counts.values()) == total["embedded"]


async def test_a_chunk_moved_by_put_leaves_its_old_document(
    client: httpx.AsyncClient, kb: None
) -> None:
    chunk_id = uuid.uuid4()
    for doc in ("docA", "docB"):
        put = await client.put(f"{KB}/chunks/{chunk_id}", json={"text": "a", "doc_id": doc})
        assert put.status_code in (200, 201), put.text
    assert await document_counts(client) == {"docA": (0, 0), "docB": (1, 1)}
    await assert_counts_add_up(client)


async def test_chunks_moved_by_bulk_leave_their_old_documents(
    client: httpx.AsyncClient, kb: None
) -> None:
    ids = [str(uuid.uuid4()) for _ in range(4)]
    first = [{"chunk_id": i, "text": f"t{n}", "doc_id": "docA"} for n, i in enumerate(ids)]
    assert (await client.post(f"{KB}/chunks/bulk", json={"chunks": first})).status_code == 200
    moved = [
        {"chunk_id": ids[0], "text": "t0", "doc_id": "docB"},
        {"chunk_id": ids[1], "text": "t1", "doc_id": "docC", "vector": unit(1)},
    ]
    response = await client.post(f"{KB}/chunks/bulk", json={"chunks": moved})
    assert response.status_code == 200, response.text
    assert await document_counts(client) == {
        "docA": (2, 2), "docB": (1, 1), "docC": (1, 1),
    }  # fmt: skip
    await assert_counts_add_up(client)


async def test_an_unreachable_embedder_stores_chunks_without_vectors(
    client: httpx.AsyncClient, kb: None, embedders: UnreachableEmbedders
) -> None:
    embedders.unreachable = True
    put = await client.put(f"{KB}/chunks/{uuid.uuid4()}", json={"text": "one", "doc_id": "d"})
    assert put.status_code == 201, put.text
    assert put.json()["embedded"] is False
    with_ids = [
        {"chunk_id": str(uuid.uuid4()), "text": "two", "doc_id": "d"},
        {"chunk_id": str(uuid.uuid4()), "text": "three", "doc_id": "d", "vector": unit(3)},
    ]
    without_ids = [{"text": "four", "doc_id": "d"}, {"text": "five", "doc_id": "e"}]
    for chunks, embedded in ((with_ids, 1), (without_ids, 0)):
        bulk = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
        assert bulk.status_code == 200, bulk.text
        assert bulk.json()["embedded"] == embedded
        assert bulk.json()["embedding_error"].startswith("embedding failed: ")
    assert (await client.get(f"{KB}/chunks/count")).json() == {
        "count": 5, "embedded": 1, "not_embedded": 4,
    }  # fmt: skip
    pending = (await client.get(f"{KB}/chunks", params={"embedded": False})).json()
    assert sorted(item["text"] for item in pending["items"]) == ["five", "four", "one", "two"]

    embedders.unreachable = False
    started = await client.post(f"{KB}/chunks/embed")
    assert started.status_code == 202
    job_url = f"{KB}/jobs/{started.json()['job']['id']}"
    for _ in range(200):
        job = (await client.get(job_url)).json()
        if job["status"] in ("succeeded", "failed"):
            break
        await asyncio.sleep(0.05)
    assert job["status"] == "succeeded", job
    assert (await client.get(f"{KB}/chunks/count")).json()["not_embedded"] == 0
    document = (await client.get(f"{KB}/documents/d")).json()
    assert (document["chunk_count"], document["embedded_count"]) == (4, 4)
    assert document["progress"]["chunks_total"] == 4
    assert document["progress"]["chunks_embedded"] == 4


class GatedEmbedder(HashEmbedder):
    """Holds every call until released: a remote embedder that is slow to answer."""

    def __init__(self) -> None:
        super().__init__(384)
        self.entered = threading.Event()
        self.release = threading.Event()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.entered.set()
        self.release.wait(10)
        return super().embed_documents(texts)


async def test_no_lock_is_held_while_the_embedder_answers(
    client: httpx.AsyncClient, kb: None, embedders: FakeEmbedders
) -> None:
    """A write to the same new document goes through while another waits on the model."""
    gated = embedders.by_dimensions[384] = GatedEmbedder()
    slow = asyncio.create_task(
        client.put(f"{KB}/chunks/{uuid.uuid4()}", json={"text": "slow", "doc_id": "shared"})
    )
    try:
        assert await asyncio.to_thread(gated.entered.wait, 10)
        fast = await asyncio.wait_for(
            client.put(
                f"{KB}/chunks/{uuid.uuid4()}",
                json={"text": "fast", "doc_id": "shared", "vector": unit(2)},
            ),
            timeout=5,
        )
        assert fast.status_code == 201, fast.text
    finally:
        gated.release.set()
        done = await slow
    assert done.status_code == 201, done.text
    assert await document_counts(client) == {"shared": (2, 2)}


async def test_list_by_external_id(client: httpx.AsyncClient, kb: None) -> None:
    chunks: list[dict[str, Any]] = [
        {"text": "a0", "doc_id": "A", "chunk_index": 0},
        {"text": "a1", "doc_id": "A", "chunk_index": 1},
        {"text": "b0", "doc_id": "B"},
    ]
    await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks})
    by_external = await client.get(f"{KB}/chunks", params={"doc_id": "A"})
    assert by_external.status_code == 200, by_external.text
    assert [item["text"] for item in by_external.json()["items"]] == ["a0", "a1"]
    assert by_external.json()["total"] == 2
    doc_id = by_external.json()["items"][0]["doc_id"]
    by_id = (await client.get(f"{KB}/chunks", params={"doc_id": doc_id})).json()
    assert [item["text"] for item in by_id["items"]] == ["a0", "a1"]
    for unknown in ("nope", str(uuid.uuid4())):
        none = await client.get(f"{KB}/chunks", params={"doc_id": unknown})
        assert none.status_code == 200
        assert none.json()["items"] == []
        assert none.json()["total"] == 0


async def test_progress_of_chunk_api_documents_follows_their_counts(
    client: httpx.AsyncClient, kb: None
) -> None:
    await client.put(f"{KB}/chunks/{uuid.uuid4()}", json={"text": "x", "doc_id": "p"})
    await client.post(
        f"{KB}/chunks/bulk", json={"chunks": [{"text": "y", "doc_id": "p", "vector": unit(4)}]}
    )
    document = (await client.get(f"{KB}/documents/p")).json()
    assert (document["chunk_count"], document["embedded_count"]) == (2, 2)
    assert document["progress"]["chunks_total"] == 2
    assert document["progress"]["chunks_embedded"] == 2
    await client.delete(f"{KB}/documents/p/chunks")
    document = (await client.get(f"{KB}/documents/p")).json()
    assert document["progress"]["chunks_total"] == 0


async def test_a_chunk_write_racing_its_documents_delete_is_never_a_500(
    client: httpx.AsyncClient,
) -> None:
    # It failed the chunk's foreign key (a 500) about one time in four before the write took a
    # shared lock on its document: now the DELETE waits for it, or the write makes a new one.
    assert (await client.post("/v1/knowledge-bases", json={"name": "race"})).status_code == 201
    base = "/v1/knowledge-bases/race"
    answers: set[int] = set()
    for round_ in range(30):
        doc = f"doc-{round_}"
        seeded = await client.put(
            f"{base}/chunks/{uuid.uuid4()}", json={"doc_id": doc, "text": "seed"}
        )
        assert seeded.status_code == 201, seeded.text
        write, delete = await asyncio.gather(
            client.put(f"{base}/chunks/{uuid.uuid4()}", json={"doc_id": doc, "text": "racing"}),
            client.delete(f"{base}/documents/{doc}"),
        )
        answers |= {write.status_code, delete.status_code}
    assert answers <= {201, 204, 404}, answers
