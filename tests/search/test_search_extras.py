"""include=context, rerank over HTTP, and MMR diversification."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.kit.errors import ServiceUnavailable
from app.search.mmr import mmr_order
from app.search.rerank import HttpReranker, parse_scores, reranker_from_env
from tests.search.corpus import ChunkSpec, add_document, create_kb, search, titles, unit

SECTION_TEXT = "Installing\nDownload the package. Run the installer."
TREE = {
    "node_id": "root",
    "kind": "document",
    "title": "Guide",
    "text": "whole document",
    "range": {"start_offset": 0, "end_offset": 200},
    "children": [
        {
            "node_id": "s1",
            "kind": "section",
            "title": "Installing",
            "enrichment": {"summary": "How to install it.", "keywords": ["install"]},
            "level": 1,
            "text": SECTION_TEXT,
            "range": {"start_offset": 0, "end_offset": 52},
            "page_start": 2,
            "page_end": 2,
            "children": [
                {
                    "node_id": "p1",
                    "kind": "paragraph",
                    "text": "Download the package.",
                    "range": {"start_offset": 11, "end_offset": 32},
                    "children": [],
                },
                {
                    "node_id": "p2",
                    "kind": "paragraph",
                    "text": "Run the installer.",
                    "range": {"start_offset": 33, "end_offset": 52},
                    "children": [],
                },
            ],
        }
    ],
}


async def test_context_brings_ancestors_parent_section_and_neighbours(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "guide")
    await add_document(
        app,
        kb,
        [
            ChunkSpec("Guide title page", node_path=["root"]),
            ChunkSpec("Download the package.", node_path=["root", "s1", "p1"]),
            ChunkSpec("Run the installer.", node_path=["root", "s1", "p2"]),
        ],
        title="Guide",
        tree={"root": TREE, "text": "whole document", "format": "markdown"},  # as stored
    )
    found = await search(client, kb, query="download package", mode="text", include=["context"])
    hit = found["hits"][0]
    assert hit["text"] == "Download the package."
    assert hit["node_path"] == ["root", "s1", "p1"]
    context = hit["context"]
    assert [(n["node_id"], n["kind"], n["title"]) for n in context["ancestors"]] == [
        ("root", "document", "Guide"),
        ("s1", "section", "Installing"),
    ]
    parent = context["parent"]
    assert parent["node_id"] == "s1"
    assert (parent["summary"], parent["keywords"]) == ("How to install it.", ["install"])
    assert [n["summary"] for n in context["ancestors"]] == [None, "How to install it."]
    assert parent["text"] == SECTION_TEXT
    assert parent["truncated"] is False
    assert (parent["page_start"], parent["start_offset"], parent["end_offset"]) == (2, 0, 52)
    assert context["previous"]["text"] == "Guide title page"
    assert context["next"]["text"] == "Run the installer."
    assert context["next"]["chunk_index"] == 2


async def test_context_of_an_ingested_document(client: httpx.AsyncClient) -> None:
    kb = await create_kb(client, "handbook")
    # Sections long enough to be chunks of their own (tiny ones merge with a neighbour).
    filler = "Each rule here has a reason, an owner and a date when it was last reviewed. " * 8
    markdown = (
        f"# Handbook\n\nWho this handbook is for. {filler}\n\n"
        f"## Leave\n\nTwenty-five days of paid leave a year, booked in the leave planner. "
        f"{filler}\n"
    )
    uploaded = await client.post(
        f"/v1/knowledge-bases/{kb['id']}/documents",
        params={"wait": "true"},
        json={"text": markdown},
    )
    assert uploaded.json()["status"] == "ready", uploaded.text
    found = await search(client, kb, query="paid leave planner", mode="text", include=["context"])
    hit = found["hits"][0]
    assert "Twenty-five days" in hit["text"]
    ancestors = hit["context"]["ancestors"]
    assert [node["node_id"] for node in ancestors] == hit["node_path"][: len(ancestors)]
    assert [node["kind"] for node in ancestors][:3] == ["document", "section", "section"]
    assert [node.get("title") for node in ancestors][1:3] == ["Handbook", "Leave"]
    parent = hit["context"]["parent"]
    assert parent["title"] == "Leave"
    assert parent["text"].startswith("## Leave")


async def test_the_parent_of_a_chunk_of_merged_sections_is_their_section(
    client: httpx.AsyncClient,
) -> None:
    kb = await create_kb(client, "merged")
    long = "Each step is explained with the reason for it and what to check after it. " * 10
    markdown = (
        "# Guide\n\nWho the guide is for.\n\n## Installation\n\nInstall it first.\n\n"
        f"### Linux\n\nUse the package.\n\n### Windows\n\n{long}\n"
    )
    uploaded = await client.post(
        f"/v1/knowledge-bases/{kb['id']}/documents",
        params={"wait": "true"},
        json={"text": markdown},
    )
    assert uploaded.json()["status"] == "ready", uploaded.text
    found = await search(client, kb, query="use package", mode="text", include=["context"])
    hit = next(h for h in found["hits"] if "Use the package." in h["text"])
    assert hit["section_titles"] == ["Guide"]  # Intro, Installation and Linux in one chunk
    # The hit carries its lineage as the chunk does: the leaf is the Guide section, depth 1.
    stored = await client.get(f"/v1/knowledge-bases/{kb['id']}/chunks/{hit['chunk_id']}")
    assert (hit["leaf_node_id"], hit["depth"]) == (hit["node_path"][-1], 1)
    assert (stored.json()["leaf_node_id"], stored.json()["depth"]) == (hit["leaf_node_id"], 1)
    assert (hit["context"]["parent"]["kind"], hit["context"]["parent"]["title"]) == (
        "section",
        "Guide",
    )
    assert [n["kind"] for n in hit["context"]["ancestors"]] == ["document"]


async def test_context_without_a_tree_still_has_neighbours(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "flat")
    await add_document(app, kb, ["first part", "second part"], title="Flat")
    found = await search(client, kb, query="second", mode="text", include=["context"])
    context = found["hits"][0]["context"]
    assert context["ancestors"] == []
    assert context["parent"] is None
    assert context["previous"]["text"] == "first part"
    assert context["next"] is None


class _Rerank(BaseHTTPRequestHandler):
    """Cohere-style /rerank: the score is how often the letter 'z' occurs in the passage."""

    seen: list[dict[str, Any]] = []  # noqa: RUF012 - shared with the test on purpose
    fail = False

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        type(self).seen.append({"body": body, "auth": self.headers.get("authorization")})
        if type(self).fail:
            self.send_response(500)
            self.end_headers()
            return
        results = [
            {"index": i, "relevance_score": text.count("z") / 10}
            for i, text in enumerate(body["documents"])
        ]
        payload = json.dumps({"results": sorted(results, key=lambda r: -r["relevance_score"])})
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(payload.encode())

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def rerank_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Rerank)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Rerank.seen.clear()
    _Rerank.fail = False
    yield f"http://127.0.0.1:{server.server_address[1]}/rerank"
    server.shutdown()
    server.server_close()
    thread.join()


async def test_rerank_reorders_by_the_reranker_score(
    client: httpx.AsyncClient, app: FastAPI, rerank_url: str
) -> None:
    app.state.reranker = HttpReranker(rerank_url, model="tiny-reranker", api_key="sekret")
    kb = await create_kb(client, "rerank")
    for title, text in [("none", "jazz"), ("one", "jazz z"), ("more", "jazz zzz zz")]:
        await add_document(app, kb, [text], title=title)
    plain = await search(client, kb, query="jazz", mode="text")
    found = await search(client, kb, query="jazz", mode="text", rerank=True, include=["explain"])
    assert titles(found) == ["more", "one", "none"]
    assert [hit["score"] for hit in found["hits"]] == pytest.approx([0.7, 0.3, 0.2])
    assert found["reranked"] is True
    explain = found["hits"][0]["explain"]
    assert explain["rerank_score"] == pytest.approx(0.7)
    assert sorted(h["text"] for h in plain["hits"]) == sorted(h["text"] for h in found["hits"])
    request = _Rerank.seen[-1]
    assert request["auth"] == "Bearer sekret"
    assert request["body"]["model"] == "tiny-reranker"
    assert request["body"]["query"] == "jazz"
    assert request["body"]["texts"] == request["body"]["documents"]
    cut = await search(client, kb, query="jazz", mode="text", rerank=True, score_threshold=0.25)
    assert titles(cut) == ["more", "one"]
    paged = await search(client, kb, query="jazz", mode="text", rerank=True, top_k=1, offset=1)
    assert titles(paged) == ["one"]


async def test_a_failing_reranker_is_503_without_its_error_text(
    client: httpx.AsyncClient, app: FastAPI, rerank_url: str
) -> None:
    app.state.reranker = HttpReranker(rerank_url)
    _Rerank.fail = True
    kb = await create_kb(client, "broken")
    await add_document(app, kb, ["jazz"], title="jazz")
    found = await search(client, kb, expect=503, query="jazz", rerank=True)
    assert found["detail"] == "The reranker did not answer; try again without rerank."


def test_rerank_response_dialects() -> None:
    assert parse_scores([{"index": 1, "score": 0.2}, {"index": 0, "score": 0.9}], 2) == [0.9, 0.2]
    assert parse_scores({"data": [{"index": 0, "relevance_score": 1}]}, 1) == [1.0]
    with pytest.raises(ServiceUnavailable):
        parse_scores({"results": [{"index": 0, "relevance_score": 0.5}]}, 2)
    with pytest.raises(ServiceUnavailable):
        parse_scores({"results": [{"index": 5, "relevance_score": 0.5}]}, 1)
    with pytest.raises(ServiceUnavailable):
        parse_scores({"answer": 1}, 1)


def test_reranker_is_configured_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARBOR_RERANK_URL", raising=False)
    assert reranker_from_env() is None
    monkeypatch.setenv("ARBOR_RERANK_URL", "http://127.0.0.1:9/rerank")
    monkeypatch.setenv("ARBOR_RERANK_MODEL", "m")
    monkeypatch.setenv("ARBOR_RERANK_API_KEY_ENV", "MY_RERANK_KEY")
    monkeypatch.setenv("MY_RERANK_KEY", "k")
    reranker = reranker_from_env()
    assert reranker is not None
    assert (reranker.url, reranker.model) == ("http://127.0.0.1:9/rerank", "m")


def test_mmr_prefers_a_different_hit_over_a_near_duplicate() -> None:
    relevance = [1.0, 0.99, 0.9]
    vectors = [unit([1, 0]), unit([1, 0.01]), unit([0, 1])]
    assert mmr_order(relevance, vectors, lambda_=1.0, count=3) == [0, 1, 2]
    assert mmr_order(relevance, vectors, lambda_=0.5, count=3) == [0, 2, 1]
    assert mmr_order(relevance, [None, None, None], lambda_=0.5, count=3) == [0, 1, 2]
    assert mmr_order([], [], lambda_=0.5, count=3) == []


async def test_mmr_diversifies_search_results(client: httpx.AsyncClient, app: FastAPI) -> None:
    kb = await create_kb(client, "mmr")
    await add_document(app, kb, [ChunkSpec("copy one", unit([1, 0, 0]))], title="copy1")
    await add_document(app, kb, [ChunkSpec("copy two", unit([1, 0.02, 0]))], title="copy2")
    await add_document(app, kb, [ChunkSpec("other", unit([0.9, 0, 0.436]))], title="other")
    plain = await search(client, kb, vector=unit([1, 0, 0]), mode="vector")
    assert titles(plain) == ["copy1", "copy2", "other"]
    diverse = await search(
        client, kb, vector=unit([1, 0, 0]), mode="vector", mmr={"lambda": 0.3}, include=["explain"]
    )
    assert titles(diverse) == ["copy1", "other", "copy2"]
    assert [hit["explain"]["mmr_rank"] for hit in diverse["hits"]] == [1, 2, 3]
    assert diverse["hits"][1]["score"] == pytest.approx(0.9, abs=1e-3)
