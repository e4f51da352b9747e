"""Bulk loads without HNSW maintenance: drop a knowledge base's index, load, build it once.

Maintaining the HNSW graph row by row costs about 2 ms per inserted vector here, 8-12 s of a
5,000-chunk bulk request; building the graph once over loaded vectors costs a fraction of that
(in memory, `maintenance_work_mem`, with parallel workers). `POST .../chunks/bulk?defer_index=
true` therefore (1) commits a `vector_index` job that runs 10 seconds after the last
deferring request (each one pushes it back), (2) drops the index with DROP INDEX CONCURRENTLY
(other knowledge bases' reads and writes never wait), (3) loads. The job builds the index with
CREATE INDEX CONCURRENTLY. Until then the knowledge base's vector search is exact (a scan of
its vectors): the same results, slower. The job is committed before the drop, so a load that
fails or a crash still gets its index back.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.sql.elements import TextClause

from app.chunks.partitions import partition_of
from app.chunks.vector_index import build_memory_mb, create_index_sql, has_index, index_name
from app.db.engine import Database
from app.jobs import repository as jobs_repository
from app.jobs.worker import record_failure
from app.models import Job, KnowledgeBase

logger = logging.getLogger(__name__)

JOB_KIND = "vector_index"
# The build waits this long after the last deferring request: a load is many requests, and a
# build that starts while the load goes on has to take every later row in one by one.
DEBOUNCE_S = 10.0
RETRY_DELAY_S = 10.0
# How long a load in progress holds the build back at most (a crashed process releases it then).
HOLD_S = 600.0
# DROP INDEX CONCURRENTLY waits for transactions using the table; bounded, it fails instead.
DROP_LOCK_TIMEOUT = "5s"
COUNT_VECTORS = text(
    "SELECT count(*) FROM public.chunks WHERE knowledge_base_id = :kb AND embedding IS NOT NULL"
)
INDEX_VALID = text("SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass(:name)")


async def defer(database: Database, kb: KnowledgeBase) -> Job | None:
    """Queue the rebuild, then drop the index; None when the knowledge base has no index.

    Not while a build runs: a concurrent build waits for every older transaction, this
    request's included, and the drop would wait for the build. Rows written meanwhile go into
    the index being built, and the queued build then finds a valid index and stops. The drop
    is an optimisation: if it cannot get its lock soon, the load goes on with the index.
    """
    if not has_index(kb.embedding_dimensions):
        return None
    async with database.transaction(project_id=kb.project_id) as session:
        # Held back while this load runs (it may take longer than the debounce); the load
        # sets the debounce when it ends, or `release` does when it fails.
        job = await schedule_build(session, kb, delay_s=HOLD_S)
        building = await session.scalar(
            select(func.count())
            .select_from(Job)
            .where(Job.knowledge_base_id == kb.id, Job.kind == JOB_KIND, Job.status == "running")
        )
    if building:
        return job
    kept = await try_drop(database, kb.id)
    if kept is not None:
        logger.warning("vector index of %s kept for this load: %s", kb.id, kept)
    return job


async def try_drop(database: Database, knowledge_base_id: uuid.UUID) -> str | None:
    """Drop the index with DROP INDEX CONCURRENTLY unless another drop or build holds it or the
    table stays busy past DROP_LOCK_TIMEOUT; why not, when it was not dropped."""
    async with (
        autocommit(database) as connection,
        index_lock(connection, knowledge_base_id) as locked,
    ):
        if not locked:
            return "a build or drop of it is running"
        await connection.execute(text(f"SET lock_timeout = '{DROP_LOCK_TIMEOUT}'"))
        try:
            await connection.execute(drop_concurrently(knowledge_base_id))
        except DBAPIError as exc:
            return str(exc.orig)
        finally:
            await connection.execute(text("RESET lock_timeout"))
    return None


async def release(database: Database, kb: KnowledgeBase) -> None:
    """A deferring load failed: let the build run after the usual debounce."""
    async with database.transaction(project_id=kb.project_id) as session:
        await schedule_build(session, kb)


@asynccontextmanager
async def index_lock(
    connection: AsyncConnection, knowledge_base_id: uuid.UUID
) -> AsyncIterator[bool]:
    """One DDL at a time on a knowledge base's index (a drop or a build), across processes:
    a session-level advisory lock, tried once, released before the connection goes back."""
    key = knowledge_base_id.int & 0x7FFF_FFFF_FFFF_FFFF
    locked = bool(await connection.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}))
    try:
        yield locked
    finally:
        if locked:
            await connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})


async def schedule_build(
    session: AsyncSession, kb: KnowledgeBase, *, delay_s: float | None = None
) -> Job:
    """The queued build of this knowledge base's index, pushed back to `delay_s` (default
    DEBOUNCE_S) from now, or a new one."""
    # clock_timestamp(): counted from now, not from the start of a long load's transaction.
    run_after = func.clock_timestamp() + timedelta(
        seconds=DEBOUNCE_S if delay_s is None else delay_s
    )
    pending = await session.scalar(
        select(Job)
        .where(Job.knowledge_base_id == kb.id, Job.kind == JOB_KIND, Job.status == "queued")
        .with_for_update()
    )
    if pending is None:
        pending = jobs_repository.new_job(
            project_id=kb.project_id,
            knowledge_base_id=kb.id,
            document_id=None,
            kind=JOB_KIND,
            payload={},
            max_attempts=5,
        )
        session.add(pending)
    pending.run_after = run_after
    await session.flush()
    await session.refresh(pending)
    return pending


async def build(database: Database, kb: KnowledgeBase) -> bool:
    """Build the index if it is missing or invalid (an interrupted concurrent build leaves an
    invalid one behind, and holding the lock we know no other build is running); False when a
    valid one was already there."""
    name = f"public.{index_name(kb.id)}"
    async with autocommit(database) as connection, index_lock(connection, kb.id) as locked:
        if not locked:
            raise IndexBusy(f"another drop or build of {name} is running")
        valid = await connection.scalar(INDEX_VALID, {"name": name})
        if valid:
            return False
        if valid is not None:
            await connection.execute(drop_concurrently(kb.id))
        vectors = await connection.scalar(COUNT_VECTORS, {"kb": kb.id})
        memory = build_memory_mb(vectors or 0, dimensions=kb.embedding_dimensions, m=kb.hnsw_m)
        await connection.execute(text(f"SET maintenance_work_mem = '{memory}MB'"))
        try:
            await connection.execute(
                text(
                    create_index_sql(
                        kb.id,
                        partition=await partition_of(connection, kb.id),
                        dimensions=kb.embedding_dimensions,
                        m=kb.hnsw_m,
                        ef_construction=kb.hnsw_ef_construction,
                        concurrently=True,
                    )
                )
            )
        finally:
            await connection.execute(text("RESET maintenance_work_mem"))
    return True


def drop_concurrently(knowledge_base_id: uuid.UUID) -> TextClause:
    return text(f"DROP INDEX CONCURRENTLY IF EXISTS public.{index_name(knowledge_base_id)}")


class IndexBusy(RuntimeError):
    """Another process is dropping or building the index: try again later."""


@asynccontextmanager
async def autocommit(database: Database) -> AsyncIterator[AsyncConnection]:
    """An owner connection outside any transaction (CONCURRENTLY DDL refuses to run in one)."""
    async with database.engine.connect() as connection:
        yield await connection.execution_options(isolation_level="AUTOCOMMIT")


@dataclass
class IndexBuilder:
    """The `vector_index` job."""

    database: Database

    async def handle(self, job: Job) -> None:
        try:
            async with self.database.transaction() as session:
                kb = await session.get(KnowledgeBase, job.knowledge_base_id)
            if kb is not None:
                await build(self.database, kb)
            async with self.database.transaction() as session:
                gone = await session.get(KnowledgeBase, job.knowledge_base_id) is None
            if gone:
                # Deleted while the index was built: the index would outlive it.
                async with autocommit(self.database) as connection:
                    await connection.execute(drop_concurrently(job.knowledge_base_id))
            async with self.database.transaction() as session:
                await jobs_repository.finish(session, job.id, status="succeeded")
        except Exception as exc:
            if isinstance(exc, IndexBusy):
                logger.info("vector index of knowledge base %s: %s", job.knowledge_base_id, exc)
            else:
                logger.exception("vector index of knowledge base %s", job.knowledge_base_id)
            await record_failure(self.database, job, exc, delay_s=RETRY_DELAY_S * job.attempts)
