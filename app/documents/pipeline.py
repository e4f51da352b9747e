"""The ingestion job: parse -> tree -> chunk -> embed -> store, each stage visible to clients.

Only `store` writes chunks, in one transaction with `status = ready`, so search never sees
half a document; a job that runs twice writes the same chunk ids again.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlalchemy import delete

from app.chunks import deferred_index
from app.chunks import repository as chunks_repository
from app.chunks.backfill import Backfiller
from app.chunks.batching import Batchers
from app.chunks.deferred_index import IndexBuilder
from app.chunks.embedding import DocumentEmbedder, EmbedderFactory, cached_vectors, text_sha256
from app.chunks.repository import ChunkRow
from app.config import Settings
from app.db.engine import Database
from app.ingestion.chunking import ChunkDraft, ChunkingConfig, chunk_document
from app.ingestion.parse import parse_document
from app.ingestion.parsers import ParsedDocument
from app.ingestion.tokens import DEFAULT_EMBEDDER_WINDOW, EstimatingCounter, TokenCounter
from app.jobs import repository as jobs_repository
from app.jobs.worker import WorkerPool
from app.kit.errors import AppError
from app.models import Chunk, Document, DocumentSource, Job, KnowledgeBase
from app.search import text_statistics

logger = logging.getLogger(__name__)

CHUNK_ID_NAMESPACE = uuid.UUID("6f0c3f0e-2b7a-4f57-9a59-4c3e0b7d9a11")
MAX_RETRY_DELAY_S = 300.0
DEFAULT_MAX_TOKENS = 512


class JobGone(Exception):
    """The document was deleted (or the job cancelled) while the job ran."""


class RetryLater(Exception):
    def __init__(self, reason: str, *, delay_s: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.delay_s = delay_s


def chunk_id(document_id: uuid.UUID, index: int) -> uuid.UUID:
    """Stable per (document, position): a re-run overwrites instead of duplicating."""
    return uuid.uuid5(CHUNK_ID_NAMESPACE, f"{document_id}:{index}")


def token_counter(embedder: DocumentEmbedder | None) -> tuple[TokenCounter, int]:
    """Count with the embedder's own tokenizer where it has one."""
    tokenizer = getattr(embedder, "tokenizer", None)
    window = int(getattr(embedder, "max_tokens", DEFAULT_EMBEDDER_WINDOW))
    if tokenizer is not None and hasattr(tokenizer, "count_tokens"):
        return tokenizer, window
    return EstimatingCounter(), window


def is_transient(exc: BaseException) -> bool:
    return bool(getattr(exc, "transient", False))


@dataclass
class Ingestor:
    """Runs ingest and reindex jobs against one database."""

    database: Database
    settings: Settings
    embedders: EmbedderFactory
    batchers: Batchers

    async def handle(self, job: Job) -> None:
        try:
            await self._run(job)
        except JobGone:
            async with self.database.transaction() as session:
                await jobs_repository.finish(session, job.id, status="cancelled")
        except AppError as exc:
            # The document itself is bad (corrupt, encrypted, empty...): no retry helps.
            await self._fail(job, exc.detail)
        except ValidationError as exc:
            # Chunking settings that no longer validate: a retry would fail the same way.
            await self._fail(job, f"invalid chunking settings: {exc.errors()[0]['msg']}")
        except RetryLater as exc:
            await self._retry_or_fail(job, exc.reason, exc.delay_s)
        except Exception as exc:
            logger.exception("ingest job %s failed (attempt %d)", job.id, job.attempts)
            await self._retry_or_fail(job, f"internal error ({type(exc).__name__})", None)

    async def _run(self, job: Job) -> None:
        kb, document, source = await self._load(job)
        parsed = await self._parse(job, document, source)
        await self._set_stage(document.id, "chunking", attempts=job.attempts)
        embedder = self.embedders(kb)
        counter, window = token_counter(embedder)
        config = ChunkingConfig(**{**kb.chunking, **(job.payload.get("chunking") or {})})
        if config.max_tokens is None:
            # API models read 8k tokens, but retrieval wants passages, not chapters.
            config = config.model_copy(update={"max_tokens": min(window, DEFAULT_MAX_TOKENS)})
        drafts = await asyncio.to_thread(
            chunk_document, parsed, config, counter, embedder_window=window
        )
        known = await self._start_embedding(job, kb, document.id, drafts, embedder)
        vectors, embed_error = await self._embed(job, document.id, drafts, embedder, known)
        await self._store(job, kb, document.id, parsed, drafts, vectors, embed_error)

    async def _load(self, job: Job) -> tuple[KnowledgeBase, Document, bytes | None]:
        async with self.database.transaction() as session:
            document = await session.get(Document, job.document_id) if job.document_id else None
            if document is None:
                raise JobGone
            kb = await session.get(KnowledgeBase, document.knowledge_base_id)
            if kb is None:
                raise JobGone
            source = await session.get(DocumentSource, document.id)
            document.status = "parsing"
            document.error = None
            document.progress = {"stage": "parsing", "attempts": job.attempts}
            return kb, document, source.content if source is not None else None

    async def _parse(self, job: Job, document: Document, source: bytes | None) -> ParsedDocument:
        if source is None:
            if document.tree is None:
                raise AppError("The document has neither a stored source nor a parsed tree.")
            return ParsedDocument.model_validate(document.tree)
        payload = job.payload
        return await asyncio.to_thread(
            parse_document,
            source,
            filename=document.filename,
            content_type=payload.get("content_type"),
            format=payload.get("format"),
            title=payload.get("title"),
        )

    async def _set_stage(self, document_id: uuid.UUID, stage: str, **progress: Any) -> None:
        async with self.database.transaction() as session:
            document = await session.get(Document, document_id, with_for_update=True)
            if document is None:
                raise JobGone
            document.status = stage
            document.progress = {**document.progress, "stage": stage, **progress}

    async def _start_embedding(
        self,
        job: Job,
        kb: KnowledgeBase,
        document_id: uuid.UUID,
        drafts: list[ChunkDraft],
        embedder: DocumentEmbedder | None,
    ) -> dict[str, list[float]]:
        """Enter the embedding stage and fetch the vectors already known for these texts.

        One transaction for both: small documents are the common case, and per-document
        round trips, not the model, bound ingestion on small machines (docs/benchmarks.md).
        """
        async with self.database.transaction() as session:
            document = await session.get(Document, document_id, with_for_update=True)
            if document is None:
                raise JobGone
            document.status = "embedding"
            document.progress = {
                **document.progress,
                "stage": "embedding",
                "attempts": job.attempts,
                "chunks_total": len(drafts),
            }
            if embedder is None:
                return {}
            return await cached_vectors(session, kb, [text_sha256(d.text) for d in drafts])

    async def _embed(
        self,
        job: Job,
        document_id: uuid.UUID,
        drafts: list[ChunkDraft],
        embedder: DocumentEmbedder | None,
        known: dict[str, list[float]],
    ) -> tuple[list[list[float] | None], str | None]:
        """Vectors in batches with progress; a broken embedder leaves them null (text search)."""
        vectors: list[list[float] | None] = [None] * len(drafts)
        if embedder is None:
            return vectors, None
        batch = self.settings.embed_batch_size
        for start in range(0, len(drafts), batch):
            texts = [draft.text for draft in drafts[start : start + batch]]
            hashes = [text_sha256(text) for text in texts]
            missing = list(dict.fromkeys(h for h in hashes if h not in known))
            if missing:
                by_hash = dict(zip(hashes, texts, strict=True))
                try:
                    batcher = self.batchers.get(embedder)
                    computed = await batcher.embed([by_hash[h] for h in missing])
                except Exception as exc:
                    if is_transient(exc) and job.attempts < job.max_attempts:
                        raise RetryLater(
                            f"embedder unavailable: {exc}",
                            delay_s=getattr(exc, "retry_after", None),
                        ) from exc
                    logger.warning("document %s stored without vectors: %s", document_id, exc)
                    return [None] * len(drafts), f"embedding failed: {exc}"
                known.update(
                    (h, [float(x) for x in vector])
                    for h, vector in zip(missing, computed, strict=True)
                )
            for offset, sha in enumerate(hashes):
                vectors[start + offset] = known[sha]
            if start + batch < len(drafts):  # the store step reports the last batch
                await self._set_stage(document_id, "embedding", chunks_embedded=start + batch)
        return vectors, None

    async def _store(
        self,
        job: Job,
        kb: KnowledgeBase,
        document_id: uuid.UUID,
        parsed: ParsedDocument,
        drafts: list[ChunkDraft],
        vectors: list[list[float] | None],
        embed_error: str | None,
    ) -> None:
        async with self.database.transaction() as session:
            document = await session.get(Document, document_id, with_for_update=True)
            if document is None:
                raise JobGone
            title = document.title or parsed.title or document.filename or ""
            await session.execute(delete(Chunk).where(Chunk.document_id == document_id))
            rows = [
                ChunkRow(
                    id=chunk_id(document_id, draft.chunk_index),
                    document_id=document_id,
                    chunk_index=draft.chunk_index,
                    text=draft.text,
                    text_sha256=text_sha256(draft.text),
                    node_path=draft.node_path,
                    depth=draft.depth,
                    leaf_node_id=draft.leaf_node_id,
                    section_titles=draft.section_titles,
                    doc_title=title,
                    page_start=draft.page_start,
                    page_end=draft.page_end,
                    start_offset=draft.start_offset,
                    end_offset=draft.end_offset,
                    metadata=document.metadata_,
                    own_metadata=False,
                    embedding=vector,
                )
                for draft, vector in zip(drafts, vectors, strict=True)
            ]
            if rows:
                # The document's chunks were deleted above and its chunk ids are its own.
                await chunks_repository.insert_rows(session, kb, rows)
            replaces = job.payload.get("replaces")
            if replaces:
                await session.execute(
                    delete(Document).where(
                        Document.id == uuid.UUID(replaces),
                        Document.knowledge_base_id == kb.id,
                    )
                )
                document.external_id = job.payload.get("external_id")
            embedded = sum(vector is not None for vector in vectors)
            document.title = title
            document.format = parsed.format
            document.tree = parsed.model_dump(mode="json")
            document.status = "ready"
            document.error = embed_error
            document.chunk_count = len(rows)
            document.embedded_count = embedded
            document.progress = {
                "stage": "ready",
                "chunks_total": len(rows),
                "chunks_embedded": embedded,
                "attempts": job.attempts,
            }
            await session.execute(
                delete(DocumentSource).where(DocumentSource.document_id == document_id)
            )
            await jobs_repository.finish(session, job.id, status="succeeded")

    async def _fail(self, job: Job, error: str) -> None:
        async with self.database.transaction() as session:
            document = (
                await session.get(Document, job.document_id, with_for_update=True)
                if job.document_id
                else None
            )
            if document is not None and job.kind == "reindex" and document.chunk_count > 0:
                # The old chunks are intact and stay searchable: the document is still ready.
                document.status = "ready"
                document.error = f"reindex failed: {error}"
                document.progress = {**document.progress, "stage": "ready", "retrying": False}
            elif document is not None:
                document.status = "failed"
                document.error = error
                document.progress = {**document.progress, "stage": "failed", "retrying": False}
            await jobs_repository.finish(session, job.id, status="failed", error=error)

    async def _retry_or_fail(self, job: Job, reason: str, delay_s: float | None) -> None:
        if job.attempts >= job.max_attempts:
            await self._fail(job, f"gave up after {job.attempts} attempts: {reason}")
            return
        delay = delay_s or min(
            self.settings.job_retry_base_s * 2 ** (job.attempts - 1), MAX_RETRY_DELAY_S
        )
        async with self.database.transaction() as session:
            document = (
                await session.get(Document, job.document_id, with_for_update=True)
                if job.document_id
                else None
            )
            if document is not None:
                document.progress = {**document.progress, "retrying": True, "last_error": reason}
            await jobs_repository.retry_later(session, job.id, delay_s=delay, error=reason)


def worker_pool(
    database: Database, settings: Settings, embedders: EmbedderFactory, *, concurrency: int
) -> WorkerPool:
    """The pool that runs this service's jobs: ingest, reindex, and embedding backfills."""
    batchers = Batchers(max_batch=settings.embed_batch_size)
    ingestor = Ingestor(database, settings, embedders, batchers)
    backfiller = Backfiller(database, settings, embedders, batchers)
    refresher = text_statistics.Refresher(database)
    index_builder = IndexBuilder(database)
    handlers = {
        "ingest": ingestor.handle,
        "reindex": ingestor.handle,
        "embed": backfiller.handle,
        text_statistics.JOB_KIND: refresher.handle,
        deferred_index.JOB_KIND: index_builder.handle,
    }
    pool = WorkerPool(database, settings, handlers, concurrency=concurrency)
    pool.on_stop.append(batchers.close)
    return pool
