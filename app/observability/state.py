"""Gauges read from the database when metrics are scraped: documents, chunks, jobs, webhooks.

A few grouped counts over the whole instance (the service's own transaction, past row-level
security): no label per project or knowledge base, so the series stay few whatever the data.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.engine import Database
from app.observability import metrics

DOCUMENT_STATES = ("queued", "parsing", "chunking", "embedding", "ready", "failed")
JOB_STATES = ("queued", "running", "failed")

DOCUMENTS_SQL = text(
    "SELECT status, count(*), coalesce(sum(chunk_count), 0), coalesce(sum(embedded_count), 0) "
    "FROM documents GROUP BY status"
)
# Finished jobs that succeeded are many and say nothing about health: not counted.
JOBS_SQL = text(
    "SELECT kind, status, count(*), "
    "coalesce(extract(epoch FROM now() - min(run_after) FILTER "
    "(WHERE status = 'queued' AND run_after <= now())), 0) "
    "FROM jobs WHERE status IN ('queued', 'running', 'failed') GROUP BY kind, status"
)
WEBHOOKS_SQL = text("SELECT count(*) FROM webhooks WHERE active AND failing_since IS NOT NULL")


async def refresh(database: Database) -> None:
    """Set the database gauges and this process's pool gauges."""
    async with database.transaction() as session:
        await _documents(session)
        await _jobs(session)
        failing = await session.scalar(WEBHOOKS_SQL)
    metrics.WEBHOOKS_FAILING.set(int(failing or 0))
    refresh_pool(database)


def refresh_pool(database: Database) -> None:
    pool = database.engine.pool
    checked_out = getattr(pool, "checkedout", None)
    size = getattr(pool, "size", None)
    if callable(checked_out):
        metrics.DB_POOL_IN_USE.set(checked_out())
    if callable(size):
        metrics.DB_POOL_SIZE.set(size())
    metrics.DB_POOL_WAITING.set(database.waiting)


async def _documents(session: AsyncSession) -> None:
    seen = dict.fromkeys(DOCUMENT_STATES, (0, 0, 0))
    for status, documents, chunks, embedded in await session.execute(DOCUMENTS_SQL):
        seen[str(status)] = (int(documents), int(chunks), int(embedded))
    for status, (documents, _, _) in seen.items():
        metrics.DOCUMENTS.labels(status).set(documents)
    chunks = sum(count for _, count, _ in seen.values())
    embedded = sum(count for _, _, count in seen.values())
    metrics.CHUNKS.labels("true").set(embedded)
    metrics.CHUNKS.labels("false").set(chunks - embedded)


async def _jobs(session: AsyncSession) -> None:
    counts: dict[tuple[str, str], int] = {}
    oldest: dict[str, float] = {}
    for kind, status, count, age in await session.execute(JOBS_SQL):
        counts[(str(kind), str(status))] = int(count)
        if status == "queued":
            oldest[str(kind)] = float(age)
    # Kinds seen before keep a series at 0 rather than vanishing (alerts read absence badly).
    for kind, status in list(_known_jobs):
        counts.setdefault((kind, status), 0)
    for (kind, status), count in counts.items():
        _known_jobs.add((kind, status))
        metrics.JOBS.labels(kind, status).set(count)
    for kind in {kind for kind, _ in _known_jobs}:
        metrics.JOB_OLDEST_AGE.labels(kind).set(oldest.get(kind, 0.0))


_known_jobs: set[tuple[str, str]] = set()
