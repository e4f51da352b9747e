"""A knowledge base whose embedder is down: hybrid runs as text, vector is a 503 that says why."""

from __future__ import annotations

import logging

import httpx
import pytest
from fastapi import FastAPI

from app.chunks.providers import RegistryEmbedders
from app.config import Settings
from app.embeddings.openai import OpenAICompatibleEmbedder
from tests.search.corpus import add_document, create_kb, search

# Nothing listens on the discard port: every embedding call is refused at once.
DEAD_URL = "http://127.0.0.1:9/v1"
REMOTE = {"provider": "openai", "model": "m", "dimensions": 8, "base_url": DEAD_URL}


@pytest.fixture
async def unreachable(app: FastAPI) -> None:
    # No retries: the test is about what search does with the error, not about backoff.
    dead = OpenAICompatibleEmbedder(DEAD_URL, "sk-test", "m", 8, max_retries=0)
    app.state.embedder_factory = lambda _kb: dead


@pytest.mark.usefixtures("unreachable")
async def test_unreachable_embedder_degrades_hybrid_to_text_and_logs(
    client: httpx.AsyncClient, app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    kb = await create_kb(client, "remote", embedding={**REMOTE, "api_key_env": "X_KEY"})
    await add_document(app, kb, ["rivers run to the sea"], title="Rivers", embed=False)
    with caplog.at_level(logging.WARNING, logger="app.search.query_vectors"):
        found = await search(client, kb, query="rivers")
    assert (found["mode"], found["requested_mode"]) == ("text", "hybrid")
    assert found["degraded"] == "embedder unavailable"
    assert [hit["doc_title"] for hit in found["hits"]] == ["Rivers"]
    assert "Connection refused" in caplog.text


@pytest.mark.usefixtures("unreachable")
async def test_unreachable_embedder_makes_vector_mode_a_503(client: httpx.AsyncClient) -> None:
    kb = await create_kb(client, "remote", embedding={**REMOTE, "api_key_env": "X_KEY"})
    found = await search(client, kb, expect=503, query="rivers", mode="vector")
    assert found["type"] == "https://arbor.dev/problems/embedder-unavailable"
    assert "did not answer" in found["detail"]
    assert "refused" not in found["detail"]  # the upstream error is logged, not echoed


async def test_missing_api_key_is_named(
    client: httpx.AsyncClient,
    app: FastAPI,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ARBOR_TEST_UNSET_KEY", raising=False)
    app.state.embedder_factory = RegistryEmbedders(settings)
    kb = await create_kb(
        client, "keyless", embedding={**REMOTE, "api_key_env": "ARBOR_TEST_UNSET_KEY"}
    )
    found = await search(client, kb, expect=503, query="rivers", mode="vector")
    assert found["type"] == "https://arbor.dev/problems/embedder-unavailable"
    assert "ARBOR_TEST_UNSET_KEY holds no API key" in found["detail"]
    assert "provider 'none'" not in found["detail"]
    hybrid = await search(client, kb, query="rivers")
    assert (hybrid["mode"], hybrid["degraded"]) == ("text", "embedder unavailable")
