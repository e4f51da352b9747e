"""Rerankers: re-score (query, passage) pairs with a cross-encoder served over HTTP.

No local cross-encoder ships with Arbor (none can be installed offline here), so reranking is
off unless `ARBOR_RERANK_URL` points at a `/rerank` endpoint: Cohere, Jina, Voyage, vLLM or
Hugging Face text-embeddings-inference (TEI) all speak close enough dialects that one client
covers them (see docs/search.md).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any, Protocol

import httpx
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.kit.errors import ServiceUnavailable
from app.kit.tls import client_tls_context

logger = logging.getLogger(__name__)


class Reranker(Protocol):
    """Scores passages against a query; higher is more relevant, one score per passage."""

    async def rerank(self, query: str, passages: Sequence[str]) -> list[float]: ...


class RerankSettings(BaseSettings):
    """`ARBOR_RERANK_*`: where the reranker is; the key is read from the named variable."""

    model_config = SettingsConfigDict(env_prefix="ARBOR_RERANK_", extra="ignore")

    url: str | None = None
    model: str | None = None
    api_key_env: str | None = Field(default=None, pattern=r"^[A-Z_][A-Z0-9_]*$")
    timeout_s: float = 30.0


class HttpReranker:
    """A client for `POST <url>` rerank endpoints (Cohere/Jina/Voyage/vLLM and TEI dialects).

    The body carries the passages as both `documents` (Cohere, Jina, Voyage, vLLM) and
    `texts` (TEI); the answer may be `{"results": [...]}`, `{"data": [...]}` or a bare list of
    `{"index", "relevance_score" | "score"}` items.
    """

    def __init__(
        self,
        url: str,
        *,
        model: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.url = url
        self.model = model
        self._headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout_s
        self._transport = transport

    async def rerank(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        body: dict[str, Any] = {
            "query": query,
            "documents": list(passages),
            "texts": list(passages),
            "top_n": len(passages),
            "return_documents": False,
        }
        if self.model:
            body["model"] = self.model
        try:
            async with httpx.AsyncClient(
                timeout=self._timeout,
                transport=self._transport,
                headers=self._headers,
                verify=client_tls_context(),
            ) as client:
                response = await client.post(self.url, json=body)
                response.raise_for_status()
                payload = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            # The body never carries the upstream error text; the log does.
            logger.warning("reranker call failed: %s", exc)
            raise ServiceUnavailable(
                "The reranker did not answer; try again without rerank."
            ) from exc
        return parse_scores(payload, len(passages))


def parse_scores(payload: Any, count: int) -> list[float]:
    """One score per passage, in passage order, from any supported response dialect."""
    items = payload
    if isinstance(payload, dict):
        items = payload.get("results", payload.get("data"))
    if not isinstance(items, list):
        raise ServiceUnavailable("The reranker answered in an unknown format.")
    scores: list[float | None] = [None] * count
    for item in items:
        if not isinstance(item, dict):
            raise ServiceUnavailable("The reranker answered in an unknown format.")
        index = item.get("index")
        score = item.get("relevance_score", item.get("score"))
        if (
            not isinstance(index, int)
            or not 0 <= index < count
            or not isinstance(score, int | float)
            or isinstance(score, bool)
        ):
            raise ServiceUnavailable("The reranker answered in an unknown format.")
        scores[index] = float(score)
    if any(score is None for score in scores):
        raise ServiceUnavailable("The reranker did not score every passage.")
    return [float(score) for score in scores if score is not None]


def reranker_from_env(settings: RerankSettings | None = None) -> HttpReranker | None:
    """The configured reranker, or None when `ARBOR_RERANK_URL` is unset."""
    settings = settings or RerankSettings()
    if not settings.url:
        return None
    api_key = os.environ.get(settings.api_key_env) if settings.api_key_env else None
    return HttpReranker(
        settings.url, model=settings.model, api_key=api_key, timeout_s=settings.timeout_s
    )
