"""The `embed` job: give vectors to a knowledge base's chunks that were stored without one."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import select, text

from app.chunks.batching import Batchers
from app.chunks.embedding import (
    EmbedderFactory,
    embedding_input,
    text_sha256,
    wants_context_header,
)
from app.config import Settings
from app.db.engine import Database
from app.jobs import repository as jobs_repository
from app.models import Chunk, Job, KnowledgeBase

# The reuse key follows what the model read: a chunk copied from a knowledge base that
# embedded it under another header (or none) gets the hash of this one's input.
SET_VECTORS = text(
    "UPDATE chunks c SET embedding = CAST(v.vector AS vector), embedding_computed = true, "
    "text_sha256 = v.sha, embedded_at = now(), updated_at = now() "
    "FROM unnest(CAST(:ids AS uuid[]), CAST(:vectors AS text[]), CAST(:hashes AS text[])) "
    "AS v(id, vector, sha) "
    "WHERE c.id = v.id AND c.knowledge_base_id = :kb AND c.project_id = :project "
    "AND c.embedding IS NULL"
)
REFRESH_DOCUMENTS = text(
    "UPDATE documents d SET embedded_count = c.embedded, updated_at = now(), "
    "error = CASE WHEN c.embedded = d.chunk_count THEN NULL ELSE d.error END "
    "FROM (SELECT k.document_id, count(k.embedding) AS embedded FROM chunks k "
    "WHERE k.knowledge_base_id = :kb AND k.project_id = :project GROUP BY k.document_id) c "
    "WHERE d.id = c.document_id AND d.knowledge_base_id = :kb AND d.project_id = :project"
)


def vector_literal(vector: list[float]) -> str:
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


@dataclass
class Backfiller:
    """Embeds pending chunks in batches; safe to run twice (only null vectors are written)."""

    database: Database
    settings: Settings
    embedders: EmbedderFactory
    batchers: Batchers

    async def handle(self, job: Job) -> None:
        async with self.database.transaction() as session:
            kb = await session.get(KnowledgeBase, job.knowledge_base_id)
        embedder = self.embedders(kb) if kb is not None else None
        if kb is None or embedder is None:
            async with self.database.transaction() as session:
                await jobs_repository.finish(
                    session, job.id, status="failed", error="the knowledge base has no embedder"
                )
            return
        batcher = self.batchers.get(embedder)
        header = wants_context_header(kb.chunking)
        after = uuid.UUID(int=0)
        while True:
            async with self.database.transaction() as session:
                rows = (
                    await session.execute(
                        select(Chunk.id, Chunk.text, Chunk.doc_title, Chunk.section_titles)
                        .where(
                            Chunk.knowledge_base_id == kb.id,
                            Chunk.embedding.is_(None),
                            Chunk.id > after,
                        )
                        .order_by(Chunk.id)
                        .limit(self.settings.embed_batch_size * 4)
                    )
                ).all()
            if not rows:
                break
            inputs = [
                embedding_input(
                    row.text, title=row.doc_title, section_titles=row.section_titles, header=header
                )
                for row in rows
            ]
            try:
                vectors = await batcher.embed(inputs)
            except Exception as exc:
                await self._retry_or_fail(job, f"embedder failed: {exc}")
                return
            async with self.database.transaction() as session:
                await session.execute(
                    SET_VECTORS,
                    {
                        "ids": [row.id for row in rows],
                        "vectors": [vector_literal(list(v)) for v in vectors],
                        "hashes": [text_sha256(read) for read in inputs],
                        "kb": kb.id,
                        "project": kb.project_id,
                    },
                )
            after = rows[-1].id
        async with self.database.transaction() as session:
            await session.execute(REFRESH_DOCUMENTS, {"kb": kb.id, "project": kb.project_id})
            await jobs_repository.finish(session, job.id, status="succeeded")

    async def _retry_or_fail(self, job: Job, reason: str) -> None:
        # Vectors already written stay; a later attempt continues with what is still null.
        async with self.database.transaction() as session:
            await jobs_repository.retry_or_fail(
                session,
                job,
                reason=reason,
                delay_s=self.settings.job_retry_base_s * 2 ** (job.attempts - 1),
            )
