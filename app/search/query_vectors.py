"""The query's vector from a knowledge base's embedder, and what search does without one."""

from __future__ import annotations

import asyncio
import logging
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


async def _embed(embedder: Any, query: str, dimensions: int) -> list[float]:
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
    return vector
