"""The OpenAI-compatible embedder against a scripted fake server on 127.0.0.1."""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.embeddings import (
    EmbedderUnavailable,
    EmbeddingError,
    EmbeddingSpec,
    OpenAICompatibleEmbedder,
    build_provider,
    count_tokens,
    embed_documents_async,
    estimate_tokens,
)
from app.embeddings.openai import parse_retry_after

DIMS = 16
NO_MODEL_DIR = Path("/nonexistent")  # remote and "none" providers never read it


def raw_vector(text: str, dimensions: int = DIMS) -> np.ndarray:
    """The fake server's deterministic, deliberately unnormalised vector for a text."""
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    return np.random.default_rng(seed).standard_normal(dimensions) * 3.0


def unit(text: str) -> np.ndarray:
    vector = raw_vector(text)
    return vector / np.linalg.norm(vector)


@dataclass
class FakeOpenAI:
    """Answers POST /v1/embeddings; `plan` holds scripted answers used before normal ones."""

    url: str = ""
    plan: deque[dict[str, Any]] = field(default_factory=deque)
    requests: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, str], dict[str, Any]]:
        with self.lock:
            step = self.plan.popleft() if self.plan else {}
        if "sleep" in step:
            time.sleep(step["sleep"])
        if "status" in step:
            error = {"error": {"message": step.get("message", "scripted"), "type": "x"}}
            return step["status"], step.get("headers", {}), error
        dimensions = step.get("dimensions", DIMS)
        data = [
            {"object": "embedding", "index": i, "embedding": raw_vector(text, dimensions).tolist()}
            for i, text in enumerate(body["input"])
        ]
        data.reverse()  # real servers may answer out of order; `index` is what counts
        return 200, {}, {"object": "list", "data": data, "model": body["model"]}


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    fake = FakeOpenAI()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with fake.lock:
                fake.requests.append(
                    {
                        "path": self.path,
                        "body": body,
                        "auth": self.headers.get("Authorization"),
                        "at": time.monotonic(),
                    }
                )
            status, headers, payload = fake.answer(body)
            raw = json.dumps(payload).encode()
            try:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client timed out and left, which is the point of that test

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    fake.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(target=httpd.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    yield fake
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=5)


Make = Callable[..., OpenAICompatibleEmbedder]


@pytest.fixture
def embedder(server: FakeOpenAI) -> Iterator[Make]:
    """Builds embedders against the fake server and closes them after the test."""
    made: list[OpenAICompatibleEmbedder] = []

    def make(**options: Any) -> OpenAICompatibleEmbedder:
        options = {"backoff_base_s": 0.01, "timeout_s": 2.0, **options}
        made.append(OpenAICompatibleEmbedder(server.url, "sk-test", "fake-embed", DIMS, **options))
        return made[-1]

    yield make
    for client in made:
        client.close()


def test_vectors_are_ordered_by_index_and_normalised(server: FakeOpenAI, embedder: Make) -> None:
    texts = ["alpha", "beta", "gamma", "delta", "epsilon"]
    vectors = embedder().embed_documents(texts)

    assert vectors.shape == (5, DIMS)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(vectors, np.stack([unit(t) for t in texts]), atol=1e-6)
    assert len(server.requests) == 1
    request = server.requests[0]
    assert request["path"] == "/v1/embeddings"
    assert request["auth"] == "Bearer sk-test"
    assert request["body"] == {"model": "fake-embed", "input": texts}


def test_query_is_one_vector(embedder: Make) -> None:
    vector = embedder().embed_query("what is alpha?")

    assert vector.shape == (DIMS,)
    np.testing.assert_allclose(vector, unit("what is alpha?"), atol=1e-6)


def test_dimensions_are_sent_only_when_configured(server: FakeOpenAI, embedder: Make) -> None:
    embedder(send_dimensions=True).embed_documents(["a"])
    embedder().embed_documents(["a"])

    assert server.requests[0]["body"]["dimensions"] == DIMS
    assert "dimensions" not in server.requests[1]["body"]


def test_inputs_are_batched_and_reassembled_in_order(server: FakeOpenAI, embedder: Make) -> None:
    texts = [f"text number {i}" for i in range(10)]
    vectors = embedder(batch_size=3, max_concurrency=2).embed_documents(texts)

    sizes = sorted(len(r["body"]["input"]) for r in server.requests)
    assert sizes == [1, 3, 3, 3]
    np.testing.assert_allclose(vectors, np.stack([unit(t) for t in texts]), atol=1e-6)


def test_empty_input_makes_no_request(server: FakeOpenAI, embedder: Make) -> None:
    vectors = embedder().embed_documents([])

    assert vectors.shape == (0, DIMS)
    assert server.requests == []


def test_429_waits_as_long_as_retry_after_says(server: FakeOpenAI, embedder: Make) -> None:
    limited = {"status": 429, "headers": {"Retry-After": "0.2"}}
    server.plan.extend([limited, limited])

    vectors = embedder().embed_documents(["a", "b"])

    assert len(server.requests) == 3
    gaps = np.diff([r["at"] for r in server.requests])
    assert all(gap >= 0.19 for gap in gaps), gaps
    np.testing.assert_allclose(vectors[1], unit("b"), atol=1e-6)


def test_500_is_retried_once_then_succeeds(server: FakeOpenAI, embedder: Make) -> None:
    server.plan.append({"status": 500})

    vectors = embedder().embed_documents(["a"])

    assert len(server.requests) == 2
    np.testing.assert_allclose(vectors[0], unit("a"), atol=1e-6)


def test_gives_up_after_max_retries_with_a_transient_error(
    server: FakeOpenAI, embedder: Make
) -> None:
    server.plan.extend([{"status": 503, "message": "overloaded"}] * 10)

    with pytest.raises(EmbeddingError, match="after 3 attempts") as caught:
        embedder(max_retries=2).embed_documents(["a"])

    assert caught.value.transient is True
    assert "overloaded" in str(caught.value)
    assert len(server.requests) == 3


def test_a_long_retry_after_fails_fast_as_transient(server: FakeOpenAI, embedder: Make) -> None:
    server.plan.append({"status": 429, "headers": {"Retry-After": "3600"}})

    with pytest.raises(EmbeddingError) as caught:
        embedder().embed_documents(["a"])

    assert caught.value.transient is True
    assert len(server.requests) == 1


def test_timeouts_are_retried(server: FakeOpenAI, embedder: Make) -> None:
    server.plan.append({"sleep": 0.5})

    vectors = embedder(timeout_s=0.1).embed_documents(["a"])

    assert len(server.requests) == 2
    np.testing.assert_allclose(vectors[0], unit("a"), atol=1e-6)


def test_401_is_not_transient_and_not_retried(server: FakeOpenAI, embedder: Make) -> None:
    server.plan.append({"status": 401, "message": "Incorrect API key provided"})

    with pytest.raises(EmbeddingError, match="Incorrect API key") as caught:
        embedder().embed_documents(["a"])

    assert caught.value.transient is False
    assert len(server.requests) == 1


def test_400_is_not_transient_and_carries_the_server_message(
    server: FakeOpenAI, embedder: Make
) -> None:
    server.plan.append({"status": 400, "message": "input too long"})

    with pytest.raises(EmbeddingError, match="input too long") as caught:
        embedder().embed_documents(["a"])

    assert caught.value.transient is False
    assert len(server.requests) == 1


def test_wrong_dimensions_are_a_non_transient_error(server: FakeOpenAI, embedder: Make) -> None:
    server.plan.append({"dimensions": 8})

    with pytest.raises(EmbeddingError, match="returned 8 dimensions, expected 16") as caught:
        embedder().embed_documents(["a"])

    assert caught.value.transient is False
    assert len(server.requests) == 1


def test_connection_refused_is_transient() -> None:
    with socket.socket() as sock:  # bind, then release: nothing listens on that port now
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = OpenAICompatibleEmbedder(
        f"http://127.0.0.1:{port}/v1", None, "m", DIMS, max_retries=1, backoff_base_s=0.01
    )

    with client, pytest.raises(EmbeddingError, match="connection failed") as caught:
        client.embed_query("a")

    assert caught.value.transient is True


async def test_async_wrapper_runs_the_same_call(embedder: Make) -> None:
    vectors = await embed_documents_async(embedder(), ["a", "b"])

    np.testing.assert_allclose(vectors[0], unit("a"), atol=1e-6)


def test_retry_after_parses_seconds_and_http_dates() -> None:
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)

    assert parse_retry_after("0.25") == 0.25
    assert parse_retry_after(format_datetime(now + timedelta(seconds=7), usegmt=True), now=now) == 7
    assert parse_retry_after(format_datetime(now - timedelta(seconds=7), usegmt=True), now=now) == 0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


def test_token_estimate_errs_high_without_a_tokenizer(embedder: Make) -> None:
    provider = embedder()

    assert provider.tokenizer is None
    assert count_tokens(provider, "a" * 40) == 10
    assert estimate_tokens("東京") == 2
    assert estimate_tokens("") == 0


def test_registry_reads_the_key_from_the_named_env_var(
    server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = EmbeddingSpec(
        provider="openai",
        model="fake-embed",
        dimensions=DIMS,
        variant="remote",
        base_url=server.url,
        api_key_env="ARBOR_TEST_EMBED_KEY",
    )
    monkeypatch.delenv("ARBOR_TEST_EMBED_KEY", raising=False)
    with pytest.raises(EmbedderUnavailable, match="ARBOR_TEST_EMBED_KEY"):
        build_provider(spec, model_dir=NO_MODEL_DIR)

    monkeypatch.setenv("ARBOR_TEST_EMBED_KEY", "sk-from-env")
    provider = build_provider(spec, model_dir=NO_MODEL_DIR)
    assert isinstance(provider, OpenAICompatibleEmbedder)
    with provider:
        provider.embed_query("a")
    assert server.requests[-1]["auth"] == "Bearer sk-from-env"


def test_registry_gives_no_provider_for_none() -> None:
    spec = EmbeddingSpec(provider="none", model="none", dimensions=384, variant="none")

    assert build_provider(spec, model_dir=NO_MODEL_DIR) is None
