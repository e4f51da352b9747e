"""Chunking strategies behind one entry point, `chunk_document`."""

from __future__ import annotations

from collections.abc import Callable

from app.ingestion.chunking.base import ChunkContext, ChunkDraft, ChunkingConfig, RawChunk, Strategy
from app.ingestion.chunking.hierarchical import chunk_hierarchical
from app.ingestion.chunking.windows import chunk_csv_rows, chunk_sliding_window
from app.ingestion.parsers import ParsedDocument
from app.ingestion.tokens import DEFAULT_EMBEDDER_WINDOW, TokenCounter
from app.kit.errors import ValidationFailed

__all__ = ["STRATEGIES", "ChunkDraft", "ChunkingConfig", "chunk_document"]

STRATEGIES: dict[Strategy, Callable[[ChunkContext], list[RawChunk]]] = {
    "hierarchical": chunk_hierarchical,
    "sliding_window": chunk_sliding_window,
    "csv_rows": chunk_csv_rows,
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
    max_tokens = config.max_tokens or embedder_window
    if max_tokens > embedder_window:
        raise ValidationFailed(
            f"max_tokens {max_tokens} exceeds the embedder's window of {embedder_window} tokens"
        )
    if config.overlap_tokens >= max_tokens:
        raise ValidationFailed(f"overlap_tokens must be below max_tokens ({max_tokens})")
    if counter.count_tokens("") >= max_tokens:
        raise ValidationFailed(f"max_tokens {max_tokens} leaves no room for text")
    ctx = ChunkContext(parsed, config, counter, max_tokens=max_tokens)
    raw = STRATEGIES[config.strategy](ctx)
    return [ctx.draft(index, chunk) for index, chunk in enumerate(raw)]
