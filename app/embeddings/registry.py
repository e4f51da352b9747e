"""From an embedding spec to a loaded provider, cached so each model loads once per process."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from app.config import get_settings
from app.embeddings.base import EmbedderUnavailable, EmbeddingProvider
from app.embeddings.local import LocalOnnxEmbedder, Variant
from app.embeddings.openai import MAX_INPUT_TOKENS, OpenAICompatibleEmbedder
from app.ingestion.tokens import DEFAULT_EMBEDDER_WINDOW

ProviderName = Literal["local", "openai", "none"]
OPENAI_BASE_URL = "https://api.openai.com/v1"


@dataclass(frozen=True)
class EmbeddingSpec:
    """Which embedder a knowledge base uses; holds the *name* of the key's env var, never a key."""

    provider: ProviderName
    model: str
    dimensions: int
    variant: str = "int8"
    base_url: str | None = None
    api_key_env: str | None = None
    send_dimensions: bool = False


DEFAULT_LOCAL = EmbeddingSpec(
    provider="local", model="all-MiniLM-L6-v2", dimensions=384, variant="int8"
)


def input_window(provider: str) -> int:
    """The most tokens one text may have for a provider's model, as ingestion counts them.

    Known without loading the model, so chunking settings are checked when they are given.
    The built-in model reads 256; without an embedder (`none`) chunks keep that size too.
    """
    return MAX_INPUT_TOKENS if provider == "openai" else DEFAULT_EMBEDDER_WINDOW


def build_provider(spec: EmbeddingSpec, *, model_dir: Path) -> EmbeddingProvider | None:
    """A new provider for `spec`, None for provider "none"; EmbedderUnavailable if it can't load."""
    if spec.provider == "none":
        return None
    if spec.provider == "local":
        if spec.model != DEFAULT_LOCAL.model:
            raise EmbedderUnavailable(
                f"the local provider serves only {DEFAULT_LOCAL.model!r}, not {spec.model!r}"
            )
        if spec.variant not in ("int8", "fp32"):
            raise EmbedderUnavailable(f"local variant must be int8 or fp32, not {spec.variant!r}")
        variant: Variant = "fp32" if spec.variant == "fp32" else "int8"
        local = LocalOnnxEmbedder(
            model_dir / spec.model, variant=variant, threads=get_settings().embed_threads
        )
        if local.dimensions != spec.dimensions:
            raise EmbedderUnavailable(
                f"{spec.model} has {local.dimensions} dimensions, not {spec.dimensions}"
            )
        return local
    if spec.provider == "openai":
        key_env = spec.api_key_env or "OPENAI_API_KEY"
        api_key = os.environ.get(key_env)
        if not api_key:
            raise EmbedderUnavailable(f"environment variable {key_env} holds no API key")
        return OpenAICompatibleEmbedder(
            spec.base_url or OPENAI_BASE_URL,
            api_key,
            spec.model,
            spec.dimensions,
            send_dimensions=spec.send_dimensions,
        )
    raise EmbedderUnavailable(f"unknown embedding provider {spec.provider!r}")


_cache: dict[tuple[EmbeddingSpec, Path], EmbeddingProvider | None] = {}
_lock = threading.Lock()


def get_provider(spec: EmbeddingSpec, *, model_dir: Path | None = None) -> EmbeddingProvider | None:
    """The process-wide provider for `spec`, built on first use; failures are not cached."""
    if model_dir is None:
        model_dir = get_settings().model_dir
    key = (spec, model_dir.resolve())
    # One lock for all: two threads asking at once must not load the model twice.
    with _lock:
        if key not in _cache:
            _cache[key] = build_provider(spec, model_dir=model_dir)
        return _cache[key]


def clear_providers() -> None:
    """Forget cached providers, closing any HTTP clients (tests, shutdown)."""
    with _lock:
        providers = list(_cache.values())
        _cache.clear()
    for provider in providers:
        if isinstance(provider, OpenAICompatibleEmbedder):
            provider.close()


def load_error(spec: EmbeddingSpec, *, model_dir: Path | None = None) -> str | None:
    """Why `spec`'s provider cannot be loaded (a missing API key, model files), or None."""
    try:
        get_provider(spec, model_dir=model_dir)
    except EmbedderUnavailable as exc:
        return str(exc)
    return None
