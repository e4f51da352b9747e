"""Merged chunks keep every section they cover: spans in chunk reads, `?node_id=`, search."""

from __future__ import annotations

import httpx
import pytest

from app.ingestion import ChunkingConfig, EstimatingCounter, chunk_document, parse_document

BASE = "/v1/knowledge-bases/kb"
DOCS = f"{BASE}/documents"
TEXT = "# T\n\nIntro.\n\n## S1\n\nOne kestrel.\n\n## S2\n\n### S2.1\n\nNested content."


@pytest.fixture
async def kb(client: httpx.AsyncClient) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).status_code == 201


def test_merged_sections_are_named_by_spans() -> None:
    parsed = parse_document(TEXT.encode(), format="markdown")
    chunks = chunk_document(parsed, ChunkingConfig(), EstimatingCounter())
    merged = next(c for c in chunks if "kestrel" in c.text)
    assert merged.section_titles == ["T"]  # all the lineage can name: their common ancestor
    assert [(s.section_titles, TEXT[s.start : s.end]) for s in merged.spans] == [
        (["T"], "Intro."),
        (["T", "S1"], "One kestrel."),
    ]
    single = ChunkingConfig(min_tokens=0)  # nothing merged: no spans
    assert all(not c.spans for c in chunk_document(parsed, single, EstimatingCounter()))


async def test_spans_are_stored_found_by_node_and_searched(
    client: httpx.AsyncClient, kb: None
) -> None:
    response = await client.post(
        DOCS, params={"wait": "true"}, json={"text": TEXT, "format": "markdown"}
    )
    document = response.json()
    assert document["status"] == "ready", document
    tree = (await client.get(f"{DOCS}/{document['id']}/tree")).json()["root"]
    s1 = next(n for n in tree["children"][0]["children"] if n.get("title") == "S1")
    listed = (await client.get(f"{DOCS}/{document['id']}/chunks")).json()["items"]
    merged = next(c for c in listed if "kestrel" in c["text"])
    assert [s["section_titles"] for s in merged["spans"]] == [["T"], ["T", "S1"]]
    assert merged["spans"][1]["node_path"][-1] == s1["node_id"]
    # The merged chunk's lineage stops at T, yet S1's node finds it.
    by_node = await client.get(f"{DOCS}/{document['id']}/chunks", params={"node_id": s1["node_id"]})
    assert [c["chunk_id"] for c in by_node.json()["items"]] == [merged["chunk_id"]]
    found = await client.post(f"{BASE}/search", json={"query": "kestrel", "mode": "text"})
    hit = found.json()["hits"][0]
    assert hit["spans"] == merged["spans"]
