"""Uploads of the newer formats end to end: stored trees, pages, and text found by search that
exists only in slide notes or inside an image."""

from __future__ import annotations

import httpx
import pytest

from tests.ingestion import samples

BASE = "/v1/knowledge-bases/kb"
DOCS = f"{BASE}/documents"


@pytest.fixture
async def kb(client: httpx.AsyncClient) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).status_code == 201


async def _upload(
    client: httpx.AsyncClient, name: str, data: bytes, **fields: str
) -> dict[str, object]:
    response = await client.post(
        DOCS, params={"wait": "true"}, files={"file": (name, data)}, data=fields
    )
    assert response.status_code in (200, 201), response.text
    document: dict[str, object] = response.json()
    assert document["status"] == "ready", document
    return document


async def _text_hits(client: httpx.AsyncClient, query: str) -> list[dict[str, object]]:
    response = await client.post(f"{BASE}/search", json={"query": query, "mode": "text"})
    assert response.status_code == 200, response.text
    hits: list[dict[str, object]] = response.json()["hits"]
    return hits


async def test_slide_notes_are_searchable_on_their_slide(
    client: httpx.AsyncClient, kb: None
) -> None:
    document = await _upload(client, "deck.pptx", samples.pptx_bytes())
    assert document["format"] == "pptx"
    hits = await _text_hits(client, "platypus migration")
    assert len(hits) == 1
    assert "Notes: Mention the platypus migration budget." in str(hits[0]["text"])
    # The slides are tiny, so hierarchical chunking merges them into one chunk; its spans
    # still name each slide, and the notes lie in the first one's.
    assert (hits[0]["page_start"], hits[0]["page_end"]) == (1, 3)
    spans = hits[0]["spans"]
    assert [span["section_titles"] for span in spans] == [["Roadmap"], ["Numbers"], ["Slide 3"]]
    text = str(hits[0]["text"])
    notes = text.index("platypus") + int(hits[0]["start_offset"])
    assert spans[0]["start"] <= notes < spans[0]["end"]


async def test_text_only_in_an_image_is_found(client: httpx.AsyncClient, kb: None) -> None:
    document = await _upload(
        client, "scan.png", samples.png_bytes(["Invoice for seventeen lanterns"])
    )
    tree = (await client.get(f"{DOCS}/{document['id']}/tree")).json()
    assert (tree["format"], tree["page_count"], tree["ocr_pages"]) == ("image", 1, [1])
    assert tree["root"]["children"][0]["confidence"] > 0.5
    hits = await _text_hits(client, "lanterns")
    assert [hit["doc_id"] for hit in hits] == [document["id"]]


async def test_spreadsheet_upload_and_a_hostile_one_fails_readably(
    client: httpx.AsyncClient, kb: None
) -> None:
    # csv_rows takes spreadsheets too: each sheet's rows under that sheet's header.
    document = await _upload(
        client, "budget.xlsx", samples.xlsx_bytes(), chunking='{"strategy": "csv_rows"}'
    )
    chunks = (await client.get(f"{DOCS}/{document['id']}/chunks")).json()["items"]
    assert [(c["section_titles"], c["text"].split("\n")[0]) for c in chunks] == [
        (["Budget"], "Item | Cost | Owner"),
        (["People"], "Name | Team"),
    ]
    response = await client.post(
        DOCS, params={"wait": "true"}, files={"file": ("broken.pptx", b"PK\x03\x04 junk")}
    )
    failed = response.json()
    assert failed["status"] == "failed"
    assert "corrupt PPTX" in failed["error"]
