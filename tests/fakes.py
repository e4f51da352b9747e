"""Deterministic stand-ins for tests that are not about retrieval quality."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from app.models import KnowledgeBase


class HashEmbedder:
    """Unit vectors derived from a text's hash: equal texts, equal vectors; counts its calls."""

    def __init__(self, dimensions: int = 384) -> None:
        self.dimensions = dimensions
        self.calls: list[list[str]] = []

    def vector(self, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
        vector = np.random.default_rng(seed).standard_normal(self.dimensions).astype(np.float32)
        return vector / np.linalg.norm(vector)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.stack([self.vector(text) for text in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self.vector(text)


class FakeEmbedders:
    """An embedder factory: one HashEmbedder per dimension; None for provider 'none'."""

    def __init__(self) -> None:
        self.by_dimensions: dict[int, HashEmbedder] = {}
        # Simulates a provider that is down: knowledge bases get no embedder.
        self.down = False

    def __call__(self, kb: KnowledgeBase) -> HashEmbedder | None:
        if kb.embedding_provider == "none" or self.down:
            return None
        return self.by_dimensions.setdefault(
            kb.embedding_dimensions, HashEmbedder(kb.embedding_dimensions)
        )
