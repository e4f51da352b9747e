"""The default embedder factory: a knowledge base's embedding settings -> a loaded provider."""

from __future__ import annotations

from app.chunks.embedding import DocumentEmbedder, EmbedderFactory
from app.config import Settings
from app.models import KnowledgeBase


def default_embedder_factory(_settings: Settings) -> EmbedderFactory:
    def factory(kb: KnowledgeBase) -> DocumentEmbedder | None:
        if kb.embedding_provider == "none":
            return None
        raise NotImplementedError("embedding providers are wired in by the embeddings work")

    return factory
