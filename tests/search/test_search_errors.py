"""Requests search cannot answer are 4xx problems that say why."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.search.corpus import add_document, create_kb, search, unit


@pytest.fixture
async def kb(client: httpx.AsyncClient, app: FastAPI) -> dict[str, Any]:
    created = await create_kb(client, "errors")
    await add_document(app, created, ["some text about rivers"], title="Rivers")
    return created


async def test_vector_of_the_wrong_dimension_is_422(client: httpx.AsyncClient, kb: Any) -> None:
    found = await search(client, kb, expect=422, vector=[0.1, 0.2, 0.3], mode="vector")
    assert "has 3 dimensions" in found["detail"]
    assert "expects 384" in found["detail"]
    assert found["errors"][0]["loc"] == ["body", "vector"]


async def test_nothing_to_search_is_422(client: httpx.AsyncClient, kb: Any) -> None:
    found = await search(client, kb, expect=422, query="   ")
    assert "query" in found["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {"query": "x", "top_k": 0},
        {"query": "x", "top_k": 201},
        {"query": "x", "candidates": 1001},
        {"query": "x", "vector_weight": 1.5},
        {"query": "x", "mode": "semantic"},
        {"query": "x", "fusion": "max"},
        {"query": "x", "include": ["everything"]},
        {"query": "x", "offset": -1},
        {"query": "x", "unknown": 1},
        {"query": "x", "mmr": {"lambda": 2}},
        {"query": "x" * 20_001},
    ],
)
async def test_out_of_range_options_are_422(
    client: httpx.AsyncClient, kb: Any, body: dict[str, Any]
) -> None:
    found = await search(client, kb, expect=422, **body)
    assert found["type"].endswith("validation-error")


async def test_text_mode_without_query_is_422(client: httpx.AsyncClient, kb: Any) -> None:
    found = await search(client, kb, expect=422, vector=unit([1]), mode="text")
    assert "needs a `query`" in found["detail"]


async def test_unknown_knowledge_base_is_404(client: httpx.AsyncClient) -> None:
    found = await search(client, "nope", expect=404, query="x")
    assert "nope" in found["detail"]


async def test_without_embedder_hybrid_degrades_to_text(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "plain", embedding={"provider": "none"})
    await add_document(app, kb, ["rivers run to the sea"], title="Rivers", embed=False)
    found = await search(client, kb, query="rivers")
    assert (found["mode"], found["requested_mode"]) == ("text", "hybrid")
    assert found["degraded"] == "no embedder"
    assert [hit["doc_title"] for hit in found["hits"]] == ["Rivers"]
    explicit = await search(client, kb, expect=422, query="rivers", mode="vector")
    assert "no embedder" in explicit["detail"]


async def test_hybrid_with_only_a_vector_runs_as_vector(client: httpx.AsyncClient, kb: Any) -> None:
    found = await search(client, kb, vector=unit([1]))
    assert (found["mode"], found["degraded"]) == ("vector", "no query text")
    assert len(found["hits"]) == 1


async def test_rerank_without_a_configured_reranker_is_422(
    client: httpx.AsyncClient, kb: Any, app: FastAPI
) -> None:
    app.state.reranker = None
    found = await search(client, kb, expect=422, query="rivers", rerank=True)
    assert "ARBOR_RERANK_URL" in found["detail"]


@pytest.mark.parametrize(
    ("vector", "message"),
    [
        ([1e39] * 384, "NaN or infinite"),  # beyond float32: the database refused it (a 500)
        ([0.0] * 384, "all zeros"),  # cosine to it is undefined: every score was null
        ([1e-50] * 384, "all zeros"),  # zero once stored as float32
    ],
)
async def test_vectors_search_cannot_compare_are_422(
    client: httpx.AsyncClient, kb: Any, vector: list[float], message: str
) -> None:
    for mode in ("vector", "hybrid"):
        found = await search(client, kb, expect=422, vector=vector, query="rivers", mode=mode)
        assert message in found["detail"]
        assert found["errors"][0]["loc"] == ["body", "vector"]


@pytest.mark.parametrize(
    "options",
    ['"score_threshold": NaN', '"vector_weight": NaN', '"score_threshold": -Infinity'],
)
async def test_nan_and_infinity_are_422(client: httpx.AsyncClient, kb: Any, options: str) -> None:
    # Python's json accepts them; a NaN threshold compared false with every score (no hits).
    response = await client.post(
        f"/v1/knowledge-bases/{kb['id']}/search",
        content=f'{{"query": "rivers", {options}}}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422
    assert response.json()["errors"][0]["type"] == "finite_number"


@pytest.mark.parametrize("text", ["...", "-"])
@pytest.mark.parametrize("fusion", ["weighted", "rrf"])
async def test_a_chunk_without_words_leaves_hybrid_search_working(
    client: httpx.AsyncClient, app: FastAPI, kb: Any, text: str, fusion: str
) -> None:
    """Its lexeme count is 0: the text score divided by ln(0 + 1) (DivisionByZeroError)."""
    await add_document(app, kb, [text], title="Wordless")
    found = await search(client, kb, query="rivers", fusion=fusion)
    assert "Rivers" in [hit["doc_title"] for hit in found["hits"]]
    # Through the API too: an upload, and a chunk written over with "-".
    uploaded = await client.post(
        f"/v1/knowledge-bases/{kb['id']}/documents?wait=true", json={"text": text}
    )
    assert uploaded.status_code == 200, uploaded.text
    chunk_id = "00000000-0000-4000-8000-0000000000aa"
    written = await client.put(
        f"/v1/knowledge-bases/{kb['id']}/chunks/{chunk_id}", json={"doc_id": "dash", "text": "-"}
    )
    assert written.status_code in (200, 201), written.text
    found = await search(client, kb, query="rivers", fusion=fusion)
    assert "Rivers" in [hit["doc_title"] for hit in found["hits"]]


@pytest.mark.parametrize("weight", [5e-324, 2.2e-308, 1e-200, 1e-31])
@pytest.mark.parametrize("fusion", ["weighted", "rrf"])
async def test_tiny_floats_are_safe_in_sql(
    client: httpx.AsyncClient, kb: Any, weight: float, fusion: str
) -> None:
    """A float8 product that rounds to zero is an underflow error in Postgres."""
    found = await search(
        client, kb, query="rivers", fusion=fusion, vector_weight=weight, score_threshold=weight
    )
    assert found["vector_weight"] == 0.0
    assert found["hits"]
    found = await search(client, kb, query="rivers", mmr={"lambda": weight})
    assert found["hits"]
