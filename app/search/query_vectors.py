"""The query's vector from a knowledge base's embedder, and what search does without one."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any, Protocol, runtime_checkable

import numpy as np

from app.chunks.embedding import EmbedderFactory
from app.chunks.providers import spec_of
from app.embeddings.base import EmbeddingError
from app.embeddings.registry import load_error
from app.kit.errors import AppError, ValidationFailed
from app.models import KnowledgeBase

logger = logging.getLogger(__name__)

# `degraded` reasons of a hybrid search that ran as text (docs/search.md, "Degradation").
NO_EMBEDDER = "no embedder"
EMBEDDER_UNAVAILABLE = "embedder unavailable"
# Query vectors kept per (embedder, query text): a repeated query (a user paging through hits,
# a dashboard, the same question asked by many) skips the model run and its thread hop.
QUERY_CACHE_SIZE = 1024


@runtime_checkable
class QueryEmbedder(Protocol):
    def embed_query(self, text: str) -> np.ndarray: ...


class EmbedderMismatch(AppError):
    status = 500
    type_ = "internal-error"
    title = "Internal server error"


class EmbedderDown(AppError):
    """The knowledge base has an embedding model, but it cannot embed the query right now."""

    status = 503
    type_ = "embedder-unavailable"
    title = "Embedder unavailable"


async def query_vector(
    embedders: EmbedderFactory, kb: KnowledgeBase, query: str, *, required: bool
) -> tuple[list[float] | None, str | None]:
    """The query's vector, or None and the `degraded` reason when there is none to be had.

    `required` (mode `vector`): no vector is an error instead, a 422 when the knowledge base
    has no embedder by design, a 503 when its embedder cannot be loaded or does not answer.
    """
    embedder = embedders(kb)
    if embedder is None and kb.embedding_provider == "none":
        if required:
            raise ValidationFailed(
                f"Knowledge base {kb.name!r} has no embedder (provider 'none'): pass a "
                "`vector`, or use mode 'text' or 'hybrid'."
            )
        return None, NO_EMBEDDER
    described = f"provider {kb.embedding_provider!r}, model {kb.embedding_model!r}"
    if embedder is None:
        if required:
            # The factory logged why; asking the registry again names it (a missing API key).
            why = load_error(spec_of(kb)) or "it could not be loaded (see the server log)"
            raise EmbedderDown(
                f"The embedder of knowledge base {kb.name!r} ({described}) is unavailable: "
                f"{why}. Pass a `vector`, or use mode 'text' or 'hybrid'."
            )
        return None, EMBEDDER_UNAVAILABLE
    try:
        return await _embed(embedder, query, kb.embedding_dimensions), None
    except EmbeddingError as exc:
        # The upstream error goes to the log only: a 5xx body never carries exception text.
        logger.warning("embedding the query for knowledge base %s failed: %s", kb.name, exc)
        if required:
            raise EmbedderDown(
                f"The embedder of knowledge base {kb.name!r} ({described}) did not answer; "
                "try again later, pass a `vector`, or use mode 'text' or 'hybrid'."
            ) from exc
        return None, EMBEDDER_UNAVAILABLE


class QueryVectorCache:
    """The most recently used query vectors, per embedder object and query text.

    Per embedder object: the factory hands out one object per embedding spec, and a changed
    spec (model, dimensions, endpoint) is another object, so a vector is only ever reused for
    the model that made it. The entry holds its embedder, so the id in its key cannot be
    reused by another object while it is cached. Only checked vectors are kept.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[int, str], tuple[Any, tuple[float, ...]]] = OrderedDict()

    def get(self, embedder: Any, query: str) -> list[float] | None:
        key = (id(embedder), query)
        entry = self._entries.get(key)
        if entry is None or entry[0] is not embedder:
            return None
        self._entries.move_to_end(key)
        return list(entry[1])

    def put(self, embedder: Any, query: str, vector: list[float]) -> None:
        key = (id(embedder), query)
        self._entries[key] = (embedder, tuple(vector))
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()


query_cache = QueryVectorCache(QUERY_CACHE_SIZE)


async def _embed(embedder: Any, query: str, dimensions: int) -> list[float]:
    cached = query_cache.get(embedder, query)
    if cached is not None and len(cached) == dimensions:
        return cached
    # The model is CPU-bound and remote providers block on HTTP: keep both off the event loop.
    if isinstance(embedder, QueryEmbedder):
        array = await asyncio.to_thread(embedder.embed_query, query)
    else:
        array = (await asyncio.to_thread(embedder.embed_documents, [query]))[0]
    vector = [float(x) for x in np.asarray(array, dtype=np.float32).ravel()]
    if len(vector) != dimensions:
        raise EmbedderMismatch(
            "The embedder returned vectors of the wrong dimension; the error was logged."
        )
    query_cache.put(embedder, query, vector)
    return vector
