"""A document past the memory ceiling fails while it is read, with an error naming the setting."""

from __future__ import annotations

import tracemalloc

import httpx
import pytest

from app.config import Settings
from app.ingestion import iter_nodes, parse_document
from app.ingestion.parsers import ParseLimits
from tests.ingestion.samples import prose_paragraphs


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(env="test", database_url=database_url, ingest_memory_mb=64)


async def test_an_upload_past_the_ceiling_fails_with_a_readable_error(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    limit = ParseLimits.within(settings.ingest_memory_bytes).max_text_chars
    text = "The river floods in spring. " * (limit // 28 + 10)
    assert (await client.post("/v1/knowledge-bases", json={"name": "big"})).status_code == 201
    uploaded = await client.post(
        "/v1/knowledge-bases/big/documents?wait=true",
        files={"file": ("big.txt", text.encode())},
    )
    assert uploaded.status_code == 200, uploaded.text
    document = uploaded.json()
    assert document["status"] == "failed"
    assert "64 MiB" in document["error"]
    assert "ARBOR_INGEST_MEMORY_MB" in document["error"]
    parsed = await client.post("/v1/parse", files={"file": ("big.txt", text.encode())})
    assert parsed.status_code == 413, parsed.text
    assert "ARBOR_INGEST_MEMORY_MB" in parsed.json()["detail"]
    # Under the ceiling, the same text is ingested (a third of it: some 0.7 MB to chunk and
    # embed, which may take over the default wait on a loaded machine).
    fits = await client.post(
        "/v1/knowledge-bases/big/documents?wait=true&timeout=300",
        files={"file": ("fits.txt", text[: limit // 3].encode())},
    )
    assert fits.json()["status"] == "ready", fits.text


def test_a_document_tree_costs_a_bounded_multiple_of_its_text() -> None:
    """Parsing text of short sentences (the densest tree: a node per sentence and paragraph)
    peaks at a small multiple of the upload; validating every node took about 34x."""
    data = "\n\n".join(prose_paragraphs(18, 800)).encode()
    tracemalloc.start()
    try:
        parsed = parse_document(data, format="text")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sum(1 for _ in iter_nodes(parsed.root)) > 3000
    assert peak < 24 * len(data), f"{peak / len(data):.1f}x the upload"
