"""Parse a document (and chunk it) as ingestion would, storing nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from app.chunks.embedding import EmbedderFactory
from app.documents.ingest_work import token_counter
from app.documents.upload import Upload
from app.ingestion.chunking import ChunkingConfig, chunk_document
from app.ingestion.parse import parse_document
from app.ingestion.parsers import ParseLimits
from app.models import KnowledgeBase
from app.parse.schemas import ParsedChunk, ParseRead

# Threads still parsing for a request that went away: kept, so that their slots are released.
_running: set[asyncio.Task[bytes]] = set()


def parse(
    upload: Upload,
    *,
    detected_format: str,
    kb: KnowledgeBase | None,
    embedders: EmbedderFactory,
    limits: ParseLimits,
) -> ParseRead:
    """What ingestion makes of the upload: the pipeline's parse (and chunk) steps, with the same
    arguments. CPU-bound: run it off the event loop (`run_bounded`)."""
    config = ChunkingConfig(**{**kb.chunking, **(upload.chunking or {})}) if kb else None
    parsed = parse_document(
        upload.data,
        filename=upload.filename,
        content_type=upload.content_type,
        format=detected_format,
        title=upload.title,
        limits=limits,
        json_text_fields=config.json_text_fields if config else None,
    )
    # The title the pipeline gives the document and its chunks.
    title = upload.title or parsed.title or upload.filename or ""
    chunks = None
    if kb is not None and config is not None:
        embedder = embedders(kb)
        counter, window = token_counter(embedder)
        chunks = [
            ParsedChunk(
                **draft.model_dump(exclude={"prefix", "doc_title"}),
                doc_title=title,
            )
            for draft in chunk_document(parsed, config, counter, embedder_window=window)
        ]
    return ParseRead(
        format=parsed.format,
        title=title,
        text=parsed.text,
        page_count=parsed.page_count,
        ocr_pages=parsed.ocr_pages,
        metadata=parsed.metadata or {},
        tree=parsed.root.model_dump(mode="json"),
        chunks=chunks,
    )


async def run_bounded(slots: asyncio.Semaphore, work: Callable[[], bytes]) -> bytes:
    """`work` in a worker thread once one of `slots` is free.

    The slot is held until the thread ends, even when the request is cancelled meanwhile (a
    client that hung up): a thread cannot be stopped, and the bound is on threads at work.
    """
    await slots.acquire()
    try:
        task = asyncio.create_task(asyncio.to_thread(work))
    except BaseException:
        slots.release()
        raise
    _running.add(task)

    def done(finished: asyncio.Task[bytes]) -> None:
        _running.discard(finished)
        slots.release()
        if not finished.cancelled():
            finished.exception()  # retrieved: the request that wanted it may be gone

    task.add_done_callback(done)
    return await asyncio.shield(task)
