"""The default embedder factory: a knowledge base's embedding settings -> a loaded provider."""

from __future__ import annotations

import asyncio
import logging

from app.chunks.embedding import DocumentEmbedder
from app.config import Settings
from app.embeddings.base import EmbedderUnavailable
from app.embeddings.registry import DEFAULT_LOCAL, EmbeddingSpec, get_provider
from app.health.router import Check
from app.models import KnowledgeBase

logger = logging.getLogger(__name__)


def spec_of(kb: KnowledgeBase) -> EmbeddingSpec:
    return EmbeddingSpec(
        provider=kb.embedding_provider,  # type: ignore[arg-type]
        model=kb.embedding_model,
        dimensions=kb.embedding_dimensions,
        variant=kb.embedding_variant,
        base_url=kb.embedding_options.get("base_url"),
        api_key_env=kb.embedding_options.get("api_key_env"),
    )


class RegistryEmbedders:
    """Providers from the registry; a knowledge base whose provider cannot load gets None.

    None means chunks are stored without vectors and text search keeps working; the failure
    is logged and `/readyz` reports it for the built-in model.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def __call__(self, kb: KnowledgeBase) -> DocumentEmbedder | None:
        try:
            return get_provider(spec_of(kb), model_dir=self.settings.model_dir)
        except EmbedderUnavailable as exc:
            logger.warning("knowledge base %s has no working embedder: %s", kb.name, exc)
            return None

    async def readiness(self) -> Check:
        """The built-in model is loaded (loading it now if needed)."""
        try:
            provider = await asyncio.to_thread(
                get_provider, DEFAULT_LOCAL, model_dir=self.settings.model_dir
            )
        except EmbedderUnavailable as exc:
            return Check(name="embedder", ok=False, detail=str(exc))
        assert provider is not None
        return Check(
            name="embedder", ok=True, detail=f"{provider.model} ({provider.variant}) loaded"
        )


def default_embedder_factory(settings: Settings) -> RegistryEmbedders:
    return RegistryEmbedders(settings)
