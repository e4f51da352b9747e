"""The embedding provider protocol, its errors, and small helpers shared by providers."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from typing import Protocol

import numpy as np


class EmbeddingError(Exception):
    """An embedding call failed; `transient` says whether the same call may succeed later."""

    def __init__(self, message: str, *, transient: bool) -> None:
        super().__init__(message)
        self.transient = transient


class EmbedderUnavailable(EmbeddingError):
    """A provider cannot be loaded or configured (missing model files, missing API key)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, transient=False)


class TokenCounter(Protocol):
    """The model's own tokenizer, as chunkers need it."""

    def count_tokens(self, text: str) -> int:
        """Tokens the model sees for `text`, special tokens included, before truncation."""
        ...

    def encode_ids(self, text: str) -> list[int]:
        """Content token ids of `text` (no special tokens, no truncation)."""
        ...


class EmbeddingProvider(Protocol):
    """Turns texts into L2-normalised float32 vectors; synchronous, so call it off the loop."""

    @property
    def name(self) -> str:
        """Provider name: "local" or "openai"."""
        ...

    @property
    def model(self) -> str: ...

    @property
    def variant(self) -> str:
        """Local models: "int8" or "fp32"; APIs: "remote"."""
        ...

    @property
    def dimensions(self) -> int: ...

    @property
    def max_tokens(self) -> int:
        """The most tokens one text may have (special tokens included) before truncation."""
        ...

    @property
    def tokenizer(self) -> TokenCounter | None:
        """The model's tokenizer, or None when only an estimate is possible."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text, shape [len(texts), dimensions], in input order."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """One vector, shape [dimensions]."""
        ...


def estimate_tokens(text: str) -> int:
    """A tokenizer-free count that errs high: 4 ASCII characters a token, 1 for any other."""
    ascii_chars = sum(1 for char in text if char.isascii())
    return math.ceil(ascii_chars / 4) + (len(text) - ascii_chars)


def count_tokens(provider: EmbeddingProvider, text: str) -> int:
    """Count with the provider's tokenizer, or estimate when it has none."""
    tokenizer = provider.tokenizer
    return tokenizer.count_tokens(text) if tokenizer is not None else estimate_tokens(text)


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length as float32; an all-zero row stays zero."""
    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    normalised: np.ndarray = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return normalised


async def embed_documents_async(provider: EmbeddingProvider, texts: Sequence[str]) -> np.ndarray:
    """`embed_documents` in a worker thread, keeping the event loop free."""
    return await asyncio.to_thread(provider.embed_documents, texts)


async def embed_query_async(provider: EmbeddingProvider, text: str) -> np.ndarray:
    """`embed_query` in a worker thread, keeping the event loop free."""
    return await asyncio.to_thread(provider.embed_query, text)
