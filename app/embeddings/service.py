"""Vectors for client texts from a knowledge base's own embedder, as ingestion and search get
them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Literal

import numpy as np

from app.chunks.embedding import DocumentEmbedder, EmbedderFactory
from app.chunks.providers import spec_of
from app.embeddings.base import EmbeddingError
from app.embeddings.registry import load_error
from app.embeddings.schemas import EmbeddingCreate, EmbeddingRead
from app.kit.errors import AppError
from app.models import KnowledgeBase
from app.search.query_vectors import EmbedderDown, EmbedderMismatch, QueryEmbedder

logger = logging.getLogger(__name__)


class NoEmbedder(AppError):
    """The knowledge base has no embedding model by design (provider `none`)."""

    status = 409
    type_ = "no-embedder"
    title = "Knowledge base has no embedder"


async def embed(
    embedders: EmbedderFactory, kb: KnowledgeBase, data: EmbeddingCreate
) -> EmbeddingRead:
    """The texts' vectors: 409 without an embedder by design, 503 when it is unavailable."""
    embedder = embedders(kb)
    if embedder is None and kb.embedding_provider == "none":
        raise NoEmbedder(
            f"Knowledge base {kb.name!r} has no embedder (provider 'none'): its chunks carry "
            "the vectors clients supply, of its dimension, from a model of their choosing."
        )
    described = f"provider {kb.embedding_provider!r}, model {kb.embedding_model!r}"
    if embedder is None:
        # The factory logged why; asking the registry again names it (a missing API key).
        why = load_error(spec_of(kb)) or "it could not be loaded (see the server log)"
        raise EmbedderDown(
            f"The embedder of knowledge base {kb.name!r} ({described}) is unavailable: {why}."
        )
    try:
        # The model is CPU-bound and remote providers block on HTTP: off the event loop.
        vectors = await asyncio.to_thread(_vectors, embedder, data.texts, data.input)
    except EmbeddingError as exc:
        # The upstream error goes to the log only: a 5xx body never carries exception text.
        logger.warning("embedding texts for knowledge base %s failed: %s", kb.name, exc)
        raise EmbedderDown(
            f"The embedder of knowledge base {kb.name!r} ({described}) did not answer or "
            "refused the texts; try again later."
        ) from exc
    if any(len(vector) != kb.embedding_dimensions for vector in vectors):
        raise EmbedderMismatch(
            "The embedder returned vectors of the wrong dimension; the error was logged."
        )
    return EmbeddingRead(
        model=kb.embedding_model, dimensions=kb.embedding_dimensions, vectors=vectors
    )


def _vectors(
    embedder: DocumentEmbedder, texts: Sequence[str], input_: Literal["document", "query"]
) -> list[list[float]]:
    """As ingestion embeds chunks (`embed_documents`), or search a query (`embed_query`)."""
    if input_ == "query" and isinstance(embedder, QueryEmbedder):
        rows = [np.asarray(embedder.embed_query(text), dtype=np.float32).ravel() for text in texts]
        matrix = np.stack(rows)
    else:
        matrix = np.asarray(embedder.embed_documents(list(texts)), dtype=np.float32)
    # Each as the shortest decimal that reads back as the same float32, as pgvector writes
    # the stored vectors (`GET .../chunks?include_vector=true`): equal numbers, half the JSON.
    return [[float(str(x)) for x in row] for row in matrix]
