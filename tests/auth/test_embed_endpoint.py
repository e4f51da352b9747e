"""POST /v1/knowledge-bases/{kb}/embed: vectors from the knowledge base's own embedder."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import httpx
import numpy as np
import pytest
from fastapi import FastAPI

from app.embeddings.base import EmbeddingError
from app.embeddings.openai import OpenAICompatibleEmbedder
from app.embeddings.schemas import MAX_EMBED_TEXT_CHARS, MAX_EMBED_TEXTS
from tests.auth.helpers import bearer, create_key
from tests.fakes import FakeEmbedders, HashEmbedder

KBS = "/v1/knowledge-bases"
EMBED = f"{KBS}/kb/embed"
TEXT = "# Otters\n\nOtters hold hands while they sleep, so that they do not drift apart."


@pytest.fixture
async def kb(admin: httpx.AsyncClient) -> dict[str, Any]:
    response = await admin.post(KBS, json={"name": "kb"})
    assert response.status_code == 201
    return dict(response.json())


def _as_json(matrix: np.ndarray) -> list[list[float]]:
    """Vectors as the API writes them: each number the shortest decimal of its float32."""
    return [[float(str(x)) for x in row] for row in np.atleast_2d(np.float32(matrix))]


@pytest.mark.usefixtures("kb")
async def test_vectors_are_the_embedders_own(
    admin: httpx.AsyncClient, embedders: FakeEmbedders
) -> None:
    texts = ["rivers run to the sea", "otters", "rivers run to the sea"]
    documents = await admin.post(EMBED, json={"texts": texts, "input": "document"})
    assert documents.status_code == 200, documents.text
    body = documents.json()
    assert (body["model"], body["dimensions"]) == ("all-MiniLM-L6-v2", 384)
    embedder = embedders.by_dimensions[384]
    assert body["vectors"] == _as_json(embedder.embed_documents(texts))
    assert body["vectors"][0] == body["vectors"][2] != body["vectors"][1]
    queries = await admin.post(EMBED, json={"texts": texts, "input": "query"})
    assert queries.status_code == 200
    assert queries.json()["vectors"] == [_as_json(embedder.embed_query(t))[0] for t in texts]
    # `document` is the default, as ingestion embeds.
    default = await admin.post(EMBED, json={"texts": texts})
    assert default.json()["vectors"] == body["vectors"]


@pytest.mark.usefixtures("kb")
async def test_query_input_uses_embed_query(
    admin: httpx.AsyncClient, embedders: FakeEmbedders, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = embedders.by_dimensions.setdefault(384, HashEmbedder(384))
    monkeypatch.setattr(embedder, "embed_query", lambda text: embedder.vector("query: " + text))
    response = await admin.post(EMBED, json={"texts": ["otters"], "input": "query"})
    assert response.json()["vectors"] == _as_json(embedder.vector("query: otters"))


@pytest.mark.usefixtures("kb")
async def test_a_chunks_vector_and_a_vector_search_with_it(admin: httpx.AsyncClient) -> None:
    document = await admin.post(f"{KBS}/kb/documents", params={"wait": "true"}, json={"text": TEXT})
    assert document.json()["status"] == "ready", document.text
    chunks = (await admin.get(f"{KBS}/kb/chunks", params={"include_vector": "true"})).json()
    (chunk,) = chunks["items"]
    embedded = await admin.post(EMBED, json={"texts": [chunk["text"]], "input": "document"})
    (vector,) = embedded.json()["vectors"]
    assert vector == chunk["vector"]  # what ingestion stored for the same text, as written
    found = await admin.post(
        f"{KBS}/kb/search", json={"vector": vector, "mode": "vector", "top_k": 1}
    )
    assert found.status_code == 200, found.text
    (hit,) = found.json()["hits"]
    assert hit["chunk_id"] == chunk["chunk_id"]
    assert hit["score"] == pytest.approx(1.0, abs=1e-4)


@pytest.mark.usefixtures("kb")
@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({"texts": []}, ["body", "texts"]),
        ({"texts": ["ok"] * (MAX_EMBED_TEXTS + 1)}, ["body", "texts"]),
        ({"texts": ["ok", ""]}, ["body", "texts", 1]),
        ({"texts": ["x" * (MAX_EMBED_TEXT_CHARS + 1)]}, ["body", "texts", 0]),
        ({"texts": ["a\u0000b"]}, ["body", "texts", 0]),
        ({"texts": ["ok"], "input": "passage"}, ["body", "input"]),
        ({"texts": "ok"}, ["body", "texts"]),
        ({"texts": ["ok"], "model": "other"}, ["body", "model"]),
    ],
)
async def test_bad_bodies_are_422(
    admin: httpx.AsyncClient, embedders: FakeEmbedders, body: dict[str, Any], loc: list[Any]
) -> None:
    response = await admin.post(EMBED, json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["errors"][0]["loc"] == loc
    assert embedders.by_dimensions == {} or embedders.by_dimensions[384].calls == []


@pytest.mark.usefixtures("kb")
async def test_the_limits_themselves_are_accepted(admin: httpx.AsyncClient) -> None:
    texts = ["x" * MAX_EMBED_TEXT_CHARS] + ["ok"] * (MAX_EMBED_TEXTS - 1)
    response = await admin.post(EMBED, json={"texts": texts})
    assert response.status_code == 200, response.text
    assert len(response.json()["vectors"]) == MAX_EMBED_TEXTS


async def test_a_knowledge_base_without_an_embedder_is_409(admin: httpx.AsyncClient) -> None:
    created = await admin.post(
        KBS, json={"name": "bare", "embedding": {"provider": "none", "dimensions": 8}}
    )
    assert created.status_code == 201, created.text
    response = await admin.post(f"{KBS}/bare/embed", json={"texts": ["otters"]})
    assert response.status_code == 409
    assert response.json()["type"].endswith("/no-embedder")
    assert "provider 'none'" in response.json()["detail"]


@pytest.mark.usefixtures("kb")
async def test_an_embedder_that_cannot_load_is_503(
    admin: httpx.AsyncClient, embedders: FakeEmbedders
) -> None:
    embedders.down = True
    response = await admin.post(EMBED, json={"texts": ["otters"]})
    assert response.status_code == 503
    assert response.json()["type"].endswith("/embedder-unavailable")


@pytest.mark.usefixtures("kb")
async def test_an_embedder_that_fails_is_503_without_its_error_text(
    admin: httpx.AsyncClient, embedders: FakeEmbedders, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = embedders.by_dimensions.setdefault(384, HashEmbedder(384))

    def failing(texts: Sequence[str]) -> np.ndarray:
        raise EmbeddingError("upstream said secret-detail", transient=True)

    monkeypatch.setattr(embedder, "embed_documents", failing)
    response = await admin.post(EMBED, json={"texts": ["otters"]})
    assert response.status_code == 503
    assert response.json()["type"].endswith("/embedder-unavailable")
    assert "secret-detail" not in response.text


async def test_an_unreachable_api_embedder_is_503(admin: httpx.AsyncClient, app: FastAPI) -> None:
    remote = {"provider": "openai", "model": "m", "dimensions": 8, "api_key_env": "X_KEY"}
    created = await admin.post(KBS, json={"name": "remote", "embedding": remote})
    assert created.status_code == 201, created.text
    # Nothing listens on the discard port; no retries: the test is about the answer.
    dead = OpenAICompatibleEmbedder("http://127.0.0.1:9/v1", "sk-test", "m", 8, max_retries=0)
    app.state.embedder_factory = lambda _kb: dead
    try:
        response = await admin.post(f"{KBS}/remote/embed", json={"texts": ["otters"]})
    finally:
        dead.close()
    assert response.status_code == 503
    assert response.json()["type"].endswith("/embedder-unavailable")


@pytest.mark.usefixtures("kb")
async def test_the_model_runs_in_a_worker_thread(
    admin: httpx.AsyncClient, embedders: FakeEmbedders, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = embedders.by_dimensions.setdefault(384, HashEmbedder(384))
    threads: list[threading.Thread] = []
    original = embedder.embed_documents

    def recording(texts: Sequence[str]) -> np.ndarray:
        threads.append(threading.current_thread())
        return original(texts)

    monkeypatch.setattr(embedder, "embed_documents", recording)
    assert (await admin.post(EMBED, json={"texts": ["otters"]})).status_code == 200
    assert len(threads) == 1
    assert threads[0] is not threading.main_thread()


async def test_a_read_key_embeds_within_its_knowledge_bases(admin: httpx.AsyncClient) -> None:
    ids = {}
    for name in ("open", "closed"):
        created = await admin.post(KBS, json={"name": name})
        assert created.status_code == 201
        ids[name] = created.json()["id"]
    key = (await create_key(admin, "default", scopes=["read"], knowledge_bases=[ids["open"]]))[
        "key"
    ]
    body = {"texts": ["otters"]}
    allowed = await admin.post(f"{KBS}/open/embed", json=body, headers=bearer(key))
    assert allowed.status_code == 200, allowed.text
    assert len(allowed.json()["vectors"][0]) == 384
    refused = await admin.post(f"{KBS}/{ids['closed']}/embed", json=body, headers=bearer(key))
    assert refused.status_code == 404
    anonymous = await admin.post(f"{KBS}/open/embed", json=body, headers={"authorization": ""})
    assert anonymous.status_code == 401
