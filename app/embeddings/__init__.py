"""Embedding providers: the local ONNX model, OpenAI-compatible APIs, and their registry."""

from app.embeddings.base import (
    EmbedderUnavailable,
    EmbeddingError,
    EmbeddingProvider,
    TokenCounter,
    count_tokens,
    embed_documents_async,
    embed_query_async,
    estimate_tokens,
    l2_normalize,
)
from app.embeddings.local import LocalOnnxEmbedder, WordPieceTokenizer
from app.embeddings.openai import OpenAICompatibleEmbedder
from app.embeddings.registry import (
    DEFAULT_LOCAL,
    EmbeddingSpec,
    build_provider,
    clear_providers,
    get_provider,
)

__all__ = [
    "DEFAULT_LOCAL",
    "EmbedderUnavailable",
    "EmbeddingError",
    "EmbeddingProvider",
    "EmbeddingSpec",
    "LocalOnnxEmbedder",
    "OpenAICompatibleEmbedder",
    "TokenCounter",
    "WordPieceTokenizer",
    "build_provider",
    "clear_providers",
    "count_tokens",
    "embed_documents_async",
    "embed_query_async",
    "estimate_tokens",
    "get_provider",
    "l2_normalize",
]
