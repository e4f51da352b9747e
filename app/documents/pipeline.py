"""The ingestion job: parse -> tree -> chunk -> embed -> store, each stage visible to clients.

Only `store` writes chunks (app/documents/store_step.py), in one transaction with
`status = ready`, so search never sees half a document; a job that runs twice writes the same
chunk ids again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import ValidationError
from sqlalchemy import select, text

from app.chunks.batching import Batchers
from app.chunks.embedding import (
    DocumentEmbedder,
    EmbedderFactory,
    cached_vectors,
    embedding_input,
    text_sha256,
)
from app.config import Settings
from app.db.engine import Database
from app.documents.ingest_work import (
    JobGone,
    RetryLater,
    Work,
    document_title,
    is_transient,
    token_counter,
)
from app.documents.store_step import store_works
from app.events import service as events
from app.ingestion.chunking import ChunkingConfig, chunk_document
from app.ingestion.parse import parse_document
from app.ingestion.parsers import ParseLimits
from app.ingestion.stored import stored_document
from app.jobs import repository as jobs_repository
from app.kit.errors import AppError
from app.models import Document, DocumentSource, Job, KnowledgeBase
from app.observability.metrics import stage

logger = logging.getLogger(__name__)

MAX_RETRY_DELAY_S = 300.0
# A batch's documents move to a stage in one statement; each gets its own progress patch, and
# those deleted meanwhile are missing from what it returns.
STAGE_SQL = text(
    "UPDATE documents SET status = :stage, updated_at = now(), "
    "progress = progress || (CAST(:patches AS jsonb) -> CAST(id AS text)) "
    "WHERE id = ANY(:ids) AND project_id = :project RETURNING id"
)


@dataclass
class Ingestor:
    """Runs ingest and reindex jobs against one database.

    Jobs of one knowledge base run as a batch: one transaction per stage for all their
    documents, one model batch for all their chunks, one COPY for all their rows. Short
    documents are the common case, and per-document round trips, not the model, bounded
    ingestion (docs/benchmarks.md). What one document does wrong (bad bytes, deleted while it
    ran) settles that document's job alone.
    """

    database: Database
    settings: Settings
    embedders: EmbedderFactory
    batchers: Batchers

    async def handle_batch(self, jobs: list[Job]) -> None:
        unsettled = {job.id: job for job in jobs}
        try:
            await self._run(jobs, unsettled)
        except Exception as exc:
            logger.exception("ingest jobs failed: %s", ", ".join(str(j) for j in unsettled))
            for job in list(unsettled.values()):
                await self._retry_or_fail(job, f"internal error ({type(exc).__name__})", None)

    async def _run(self, jobs: list[Job], unsettled: dict[uuid.UUID, Job]) -> None:
        kb, works = await self._load(jobs)
        loaded = {work.job.id for work in works}
        for job in jobs:
            if job.id not in loaded:
                await self._settle(unsettled, job, JobGone())
        if kb is None or not works:
            return
        with stage("parse"):
            works = await self._each(works, unsettled, lambda work: self._parse(kb, work))
        works = await self._set_stage(works, unsettled, "chunking")
        embedder = self.embedders(kb)
        counter, window = token_counter(embedder)

        def chunk(work: Work) -> None:
            assert work.parsed is not None
            config = ChunkingConfig(**{**kb.chunking, **(work.job.payload.get("chunking") or {})})
            work.drafts = chunk_document(work.parsed, config, counter, embedder_window=window)
            title = document_title(work.document, work.parsed.title)
            work.hold_tree_as_json()
            work.hashes, work.inputs = [], {}
            for draft in work.drafts:
                read = embedding_input(
                    draft.text,
                    title=title,
                    section_titles=draft.section_titles,
                    header=config.context_header,
                )
                work.hashes.append(text_sha256(read))
                work.inputs[work.hashes[-1]] = read

        with stage("chunk"):
            works = await self._each(works, unsettled, chunk)
        works = await self._set_stage(
            works, unsettled, "embedding", lambda w: {"chunks_total": len(w.drafts)}
        )
        await self._embed_and_store(kb, works, unsettled, embedder)

    async def _load(self, jobs: list[Job]) -> tuple[KnowledgeBase | None, list[Work]]:
        """The jobs' knowledge base and documents, now `parsing`; a job without one is gone."""
        ids = [job.document_id for job in jobs if job.document_id is not None]
        async with self.database.transaction() as session:
            kb = await session.get(KnowledgeBase, jobs[0].knowledge_base_id)
            # Locked: a document deleted (or superseded) between this read and the commit
            # that marks it `parsing` failed that commit (StaleDataError); now the deletion
            # waits for this short transaction, or came first and the document is not found.
            documents = {
                document.id: document
                for document in await session.scalars(
                    select(Document)
                    .where(Document.id.in_(ids))
                    .order_by(Document.id)  # every multi-row lock in one order
                    # Not their trees (deferred): read below only where the document has no
                    # source (a reindex).
                    .with_for_update()
                )
            }
            sources = {
                source.document_id: source.content
                for source in await session.scalars(
                    select(DocumentSource).where(DocumentSource.document_id.in_(ids))
                )
            }
            sourceless = [id_ for id_ in documents if id_ not in sources]
            trees: dict[uuid.UUID, dict[str, Any] | None] = {}
            if sourceless:
                found = await session.execute(
                    select(Document.id, Document.tree).where(Document.id.in_(sourceless))
                )
                trees = dict(found.all())
            works = []
            for job in jobs:
                document = documents.get(job.document_id) if job.document_id else None
                if kb is None or document is None:
                    continue
                document.status = "parsing"
                document.error = None
                document.progress = {"stage": "parsing", "attempts": job.attempts}
                works.append(Work(job, document, sources.get(document.id), trees.get(document.id)))
        return kb, works

    def _parse(self, kb: KnowledgeBase, work: Work) -> None:
        document = work.document
        if work.source is None:
            tree, work.stored_tree = work.stored_tree, None
            if tree is None:
                raise AppError("The document has neither a stored source nor a parsed tree.")
            work.parsed = stored_document(tree)
            return
        payload = work.job.payload
        # Parsing reads one chunking setting (JSON text fields); validated at upload.
        chunking = {**kb.chunking, **(payload.get("chunking") or {})}
        work.parsed = parse_document(
            work.source,
            filename=document.filename,
            content_type=payload.get("content_type"),
            format=payload.get("format"),
            title=payload.get("title"),
            limits=ParseLimits.within(self.settings.ingest_memory_bytes),
            json_text_fields=ChunkingConfig(**chunking).json_text_fields,
        )
        # Not read again (a retry reads the stored source anew): the upload's bytes are not
        # held while the document is chunked and embedded.
        work.source = None

    async def _each(
        self,
        works: list[Work],
        unsettled: dict[uuid.UUID, Job],
        step: Callable[[Work], None],
    ) -> list[Work]:
        """`step` on every work in one worker thread; a work whose step raised is settled."""

        def run_all() -> list[Exception | None]:
            errors: list[Exception | None] = []
            for work in works:
                try:
                    step(work)
                    errors.append(None)
                except Exception as exc:  # settled below, per document
                    errors.append(exc)
            return errors

        if not works:
            return works
        errors = await asyncio.to_thread(run_all)
        kept = []
        for work, error in zip(works, errors, strict=True):
            if error is None:
                kept.append(work)
            else:
                await self._settle(unsettled, work.job, error)
        return kept

    async def _settle(self, unsettled: dict[uuid.UUID, Job], job: Job, exc: Exception) -> None:
        """End or reschedule one job after `exc`; its batch goes on without it."""
        unsettled.pop(job.id, None)
        if isinstance(exc, JobGone):
            async with self.database.transaction() as session:
                await jobs_repository.finish(session, job.id, status="cancelled")
        elif isinstance(exc, AppError):
            # The document itself is bad (corrupt, encrypted, empty...): no retry helps.
            await self._fail(job, exc.detail)
        elif isinstance(exc, ValidationError):
            # Chunking settings that no longer validate: a retry would fail the same way.
            await self._fail(job, f"invalid chunking settings: {exc.errors()[0]['msg']}")
        elif isinstance(exc, RetryLater):
            await self._retry_or_fail(job, exc.reason, exc.delay_s)
        else:
            logger.error("ingest job %s failed (attempt %d)", job.id, job.attempts, exc_info=exc)
            await self._retry_or_fail(job, f"internal error ({type(exc).__name__})", None)

    async def _set_stage(
        self,
        works: list[Work],
        unsettled: dict[uuid.UUID, Job],
        stage: str,
        progress: Callable[[Work], dict[str, Any]] | None = None,
    ) -> list[Work]:
        """Show `stage` on every work's document in one statement; a work whose document was
        deleted meanwhile is cancelled."""
        if not works:
            return works
        patches = {
            str(work.document.id): {
                "stage": stage,
                "attempts": work.job.attempts,
                **(progress(work) if progress else {}),
            }
            for work in works
        }
        async with self.database.transaction() as session:
            present = set(
                await session.scalars(
                    STAGE_SQL,
                    {
                        "stage": stage,
                        "patches": json.dumps(patches),
                        "ids": [work.document.id for work in works],
                        "project": works[0].document.project_id,
                    },
                )
            )
        kept = []
        for work in works:
            if work.document.id in present:
                kept.append(work)
            else:
                await self._settle(unsettled, work.job, JobGone())
        return kept

    async def _embed_and_store(
        self,
        kb: KnowledgeBase,
        works: list[Work],
        unsettled: dict[uuid.UUID, Job],
        embedder: DocumentEmbedder | None,
    ) -> None:
        """Embed the batch's chunks in model batches, shortest documents first, and store each
        document as soon as all its vectors are there, so that a long document does not hold
        the short ones of its batch back. A broken embedder leaves vectors null (text search)
        or, when it may recover, retries the jobs."""
        for work in works:
            work.vectors = [None] * len(work.drafts)
        if embedder is None or not works:
            await self._store_all(kb, works, unsettled)
            return
        hashes = {work.job.id: work.hashes for work in works}
        async with self.database.transaction() as session:
            known = await cached_vectors(session, kb, [h for each in hashes.values() for h in each])
        pending = sorted(works, key=lambda work: len(work.drafts))
        texts = {h: read for work in pending for h, read in work.inputs.items()}
        missing = [h for h in texts if h not in known]
        batch = self.settings.embed_batch_size
        start = 0
        while pending:
            done = [w for w in pending if all(h in known for h in hashes[w.job.id])]
            for work in done:
                work.vectors = [known[h] for h in hashes[work.job.id]]
            await self._store_all(kb, done, unsettled)
            pending = [work for work in pending if work not in done]
            if not pending:
                return
            part = missing[start : start + batch]
            start += batch
            if not part:  # every pending document has texts in `missing`: a bug, retried
                raise RuntimeError("documents left without vectors")
            try:
                with stage("embed"):
                    computed = await self.batchers.get(embedder).embed([texts[h] for h in part])
            except Exception as exc:
                await self._store_all(
                    kb, await self._embedding_failed(pending, unsettled, exc), unsettled
                )
                return
            known.update(zip(part, np.asarray(computed, dtype=np.float32), strict=True))
            if start < len(missing):  # the store step reports the last batch
                pending = await self._set_stage(
                    pending,
                    unsettled,
                    "embedding",
                    lambda w: {
                        "chunks_total": len(w.drafts),
                        "chunks_embedded": sum(h in known for h in hashes[w.job.id]),
                    },
                )

    async def _embedding_failed(
        self, works: list[Work], unsettled: dict[uuid.UUID, Job], exc: Exception
    ) -> list[Work]:
        """Jobs with attempts left retry when the embedder may recover; the others store their
        chunks without vectors now (embedded later by a backfill)."""
        kept = []
        for work in works:
            if is_transient(exc) and work.job.attempts < work.job.max_attempts:
                delay = getattr(exc, "retry_after", None)
                await self._settle(
                    unsettled, work.job, RetryLater(f"embedder unavailable: {exc}", delay_s=delay)
                )
                continue
            logger.warning("document %s stored without vectors: %s", work.document.id, exc)
            work.vectors = [None] * len(work.drafts)
            work.embed_error = f"embedding failed: {exc}"
            kept.append(work)
        return kept

    async def _store_all(
        self, kb: KnowledgeBase, works: list[Work], unsettled: dict[uuid.UUID, Job]
    ) -> None:
        """One transaction for the batch; should it fail, each document alone, so that one
        document's conflict costs only its own job a retry."""
        if not works:
            return
        try:
            with stage("store"):
                await store_works(self.database, self.settings, kb, works, unsettled)
        except Exception:
            if len(works) == 1:
                raise
            logger.exception("storing a batch of %d documents failed; one by one", len(works))
            for work in works:
                try:
                    await store_works(self.database, self.settings, kb, [work], unsettled)
                except Exception as exc:
                    await self._settle(unsettled, work.job, exc)

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
            if document is not None:
                events.document_event(session, document, "document.failed")
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
