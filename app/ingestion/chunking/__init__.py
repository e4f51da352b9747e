"""Chunking strategies behind one entry point, `chunk_document`."""

from __future__ import annotations

from collections.abc import Callable

from app.ingestion.chunking.base import ChunkContext, ChunkDraft, ChunkingConfig, RawChunk, Strategy
from app.ingestion.chunking.hierarchical import chunk_hierarchical
from app.ingestion.chunking.recursive import chunk_markdown, chunk_recursive
from app.ingestion.chunking.windows import ROW_FORMATS, chunk_csv_rows, chunk_sliding_window
from app.ingestion.parsers import ParsedDocument
from app.ingestion.tokens import DEFAULT_EMBEDDER_WINDOW, TokenCounter
from app.kit.errors import ValidationFailed

__all__ = [
    "ROW_FORMATS",
    "STRATEGIES",
    "ChunkDraft",
    "ChunkingConfig",
    "chunk_document",
    "token_budget",
]

# Without `max_tokens`: the embedder's window, but at most this. API models read 8k tokens,
# and retrieval wants passages, not chapters (app/documents/pipeline.py applies the same cap).
DEFAULT_MAX_TOKENS = 512

STRATEGIES: dict[Strategy, Callable[[ChunkContext], list[RawChunk]]] = {
    "hierarchical": chunk_hierarchical,
    "sliding_window": chunk_sliding_window,
    "csv_rows": chunk_csv_rows,
    "recursive": chunk_recursive,
    "markdown": chunk_markdown,
}


def chunk_document(
    parsed: ParsedDocument,
    config: ChunkingConfig,
    counter: TokenCounter,
    *,
    embedder_window: int = DEFAULT_EMBEDDER_WINDOW,
) -> list[ChunkDraft]:
    """Cut a parsed document into chunks numbered from 0 in document order.

    `counter` must count what the embedder sees (special tokens included); `max_tokens`
    defaults to, and may not exceed, `embedder_window`. CPU-bound: run it off the event loop.
    """
    max_tokens = token_budget(config, embedder_window=embedder_window)
    if counter.count_tokens("") >= max_tokens:
        raise ValidationFailed(f"max_tokens {max_tokens} leaves no room for text")
    ctx = ChunkContext(parsed, config, counter, max_tokens=max_tokens)
    raw = STRATEGIES[config.strategy](ctx)
    return [ctx.draft(index, chunk) for index, chunk in enumerate(raw)]


def token_budget(config: ChunkingConfig, *, embedder_window: int) -> int:
    """The most tokens a chunk may have under `config` for an embedder reading at most
    `embedder_window`; ValidationFailed when the settings cannot work with that embedder.

    Settings are checked with this when they are given (knowledge base, upload override), not
    only when a document is chunked, where the failure came too late to answer.
    """
    max_tokens = config.max_tokens or min(embedder_window, DEFAULT_MAX_TOKENS)
    if max_tokens > embedder_window:
        raise ValidationFailed(
            f"max_tokens {max_tokens} exceeds the embedder's window of {embedder_window} tokens"
        )
    if config.overlap_tokens >= max_tokens:
        raise ValidationFailed(f"overlap_tokens must be below max_tokens ({max_tokens})")
    return max_tokens
