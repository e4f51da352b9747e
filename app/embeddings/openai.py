"""An embedder for any OpenAI-compatible `/embeddings` endpoint, with bounded retries."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Self

import httpx
import numpy as np

from app.embeddings.base import EmbeddingError, l2_normalize
from app.kit.tls import client_tls_context

logger = logging.getLogger(__name__)


def is_transient_status(status: int) -> bool:
    """Rate limits, timeouts and server errors may pass on retry; other answers will not."""
    return status in (408, 425, 429) or (500 <= status < 600 and status != 501)


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP date), if usable."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    return max(0.0, seconds) if seconds == seconds else None  # NaN is unusable


def _error_detail(response: httpx.Response) -> str:
    """The server's error message if it sent the OpenAI error shape, else the body's start."""
    try:
        body = response.json()
        message = body["error"]["message"] if isinstance(body.get("error"), dict) else body
    except (ValueError, KeyError, TypeError, AttributeError):
        message = response.text
    return str(message)[:300]


# OpenAI's embedding models read at most this many tokens of one text.
MAX_INPUT_TOKENS = 8191


class OpenAICompatibleEmbedder:
    """POSTs batches to `{base_url}/embeddings`; transient failures back off and retry."""

    name = "openai"
    variant = "remote"
    tokenizer = None

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        model: str,
        dimensions: int,
        *,
        batch_size: int = 64,
        max_concurrency: int = 4,
        timeout_s: float = 30.0,
        max_retries: int = 5,
        send_dimensions: bool = False,
        max_tokens: int = MAX_INPUT_TOKENS,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 20.0,
        max_retry_after_s: float = 60.0,
    ) -> None:
        if batch_size < 1 or max_concurrency < 1 or max_retries < 0:
            raise ValueError("batch_size and max_concurrency must be >= 1, max_retries >= 0")
        self.model = model
        self.dimensions = dimensions
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.max_concurrency = max_concurrency
        self.max_retries = max_retries
        self.send_dimensions = send_dimensions
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.max_retry_after_s = max_retry_after_s
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=base_url.rstrip("/") + "/",
            headers=headers,
            timeout=httpx.Timeout(timeout_s),
            limits=httpx.Limits(max_connections=max_concurrency),
            verify=client_tls_context(),
        )
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close connections and the batch thread pool."""
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False)
                self._pool = None
        self._client.close()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One unit vector per text, in input order; batches run up to max_concurrency at once."""
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of texts, not one string")
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        batches = [
            list(texts[i : i + self.batch_size]) for i in range(0, len(texts), self.batch_size)
        ]
        if len(batches) == 1 or self.max_concurrency == 1:
            parts = [self._embed_batch(batch) for batch in batches]
        else:
            parts = list(self._executor().map(self._embed_batch, batches))
        return np.concatenate(parts)

    def embed_query(self, text: str) -> np.ndarray:
        """One unit vector for a query."""
        vector: np.ndarray = self._embed_batch([text])[0]
        return vector

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(
                    max_workers=self.max_concurrency, thread_name_prefix="embed-http"
                )
            return self._pool

    def _body(self, texts: list[str]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "input": texts}
        if self.send_dimensions:
            body["dimensions"] = self.dimensions
        return body

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with jitter, so parallel batches do not retry in lockstep."""
        ceiling = min(self.backoff_max_s, self.backoff_base_s * 2.0**attempt)
        return ceiling * random.uniform(0.5, 1.0)

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        body = self._body(texts)
        attempts = self.max_retries + 1
        for attempt in range(attempts):
            try:
                response = self._client.post("embeddings", json=body)
            except httpx.TimeoutException as exc:
                problem, delay = f"timed out ({type(exc).__name__})", self._backoff(attempt)
            except httpx.TransportError as exc:
                problem, delay = f"connection failed ({exc})", self._backoff(attempt)
            else:
                if response.status_code == 200:
                    return self._parse(response, len(texts))
                problem = f"HTTP {response.status_code}: {_error_detail(response)}"
                if response.status_code in (401, 403):
                    raise EmbeddingError(
                        f"embedding API refused the credentials ({problem})", transient=False
                    )
                if not is_transient_status(response.status_code):
                    raise EmbeddingError(
                        f"embedding API rejected the request ({problem})", transient=False
                    )
                retry_after = parse_retry_after(response.headers.get("retry-after"))
                if retry_after is not None and retry_after > self.max_retry_after_s:
                    # Waiting that long would pin a worker; let the job be retried later.
                    raise EmbeddingError(
                        f"embedding API asked to wait {retry_after:.0f} s ({problem})",
                        transient=True,
                    )
                delay = retry_after if retry_after is not None else self._backoff(attempt)
            if attempt + 1 < attempts:
                logger.warning(
                    "embedding request %s; retry %d/%d in %.2f s",
                    problem,
                    attempt + 1,
                    self.max_retries,
                    delay,
                )
                time.sleep(delay)
        raise EmbeddingError(
            f"embedding API still failing after {attempts} attempts: {problem}", transient=True
        )

    def _parse(self, response: httpx.Response, expected: int) -> np.ndarray:
        """Vectors ordered by `index`; a malformed answer is a non-transient error."""
        try:
            data = response.json()["data"]
            items = sorted(data, key=lambda item: int(item["index"]))
            indexes = [int(item["index"]) for item in items]
            rows = [item["embedding"] for item in items]
        except (ValueError, KeyError, TypeError) as exc:
            raise EmbeddingError(
                f"embedding API answered without a usable `data` list ({exc!r})", transient=False
            ) from None
        if indexes != list(range(expected)):
            raise EmbeddingError(
                f"embedding API returned {len(rows)} vectors for {expected} inputs",
                transient=False,
            )
        for row in rows:
            if not isinstance(row, list) or len(row) != self.dimensions:
                given = len(row) if isinstance(row, list) else type(row).__name__
                raise EmbeddingError(
                    f"embedding model {self.model!r} returned {given} dimensions, "
                    f"expected {self.dimensions}",
                    transient=False,
                )
        try:
            matrix = np.asarray(rows, dtype=np.float32)
        except (TypeError, ValueError):
            raise EmbeddingError(
                "embedding API returned non-numeric vectors", transient=False
            ) from None
        if not np.isfinite(matrix).all():
            raise EmbeddingError("embedding API returned non-finite values", transient=False)
        return l2_normalize(matrix)
