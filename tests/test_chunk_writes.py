"""Chunk writes and their documents: moves between documents, an embedder that is down,
listing by external id, and progress that agrees with the counts."""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator

import httpx
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
