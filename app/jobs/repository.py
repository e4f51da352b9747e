"""The job queue in Postgres: enqueue, claim with SKIP LOCKED, lease, finish, retry."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Job

CLAIM_SQL = text(
    "UPDATE jobs SET status = 'running', attempts = attempts + 1, worker_id = :worker, "
    "lease_expires_at = now() + make_interval(secs => :lease), updated_at = now() "
    "WHERE id = (SELECT id FROM jobs WHERE ((status = 'queued' AND run_after <= now()) "
    "OR (status = 'running' AND lease_expires_at < now())) AND kind <> 'graph' "
    "ORDER BY run_after, created_at LIMIT 1 FOR UPDATE SKIP LOCKED) "
    "RETURNING id"
)
# Graph jobs (enrichment and extraction, app/graph/stage.py) take seconds to minutes of CPU a
# document: they run only when no other job is runnable, and at most :most at once across
# the instance (a soft cap: two loops claiming together may both pass it), so that a knowledge
# base turning its graph on never holds back another's ingestion. Partial indexes (migration
# 0018) keep both claims index scans however many graph jobs are queued.
GRAPH_CLAIM_SQL = text(
    "UPDATE jobs SET status = 'running', attempts = attempts + 1, worker_id = :worker, "
    "lease_expires_at = now() + make_interval(secs => :lease), updated_at = now() "
    "WHERE id = (SELECT id FROM jobs WHERE ((status = 'queued' AND run_after <= now()) "
    "OR (status = 'running' AND lease_expires_at < now())) AND kind = 'graph' "
    "AND (SELECT count(*) FROM jobs g WHERE g.kind = 'graph' AND g.status = 'running' "
    "AND g.lease_expires_at >= now()) < :most "
    "ORDER BY run_after, created_at LIMIT 1 FOR UPDATE SKIP LOCKED) "
    "RETURNING id"
)


# More runnable jobs like a claimed one (same kind, same knowledge base), for a batch, in queue
# order while their documents' bytes add up to at most :budget (a batch holds its sources and
# what is parsed from them in memory at once). Candidates are locked before they are counted;
# those past the budget are released when the claim's transaction ends.
CLAIM_MORE_SQL = text(
    "WITH candidates AS ("
    " SELECT j.id, j.run_after, j.created_at, coalesce(d.size_bytes, 0) AS size"
    " FROM jobs j LEFT JOIN documents d ON d.id = j.document_id AND d.project_id = j.project_id"
    " WHERE j.kind = :kind AND j.knowledge_base_id = :kb AND j.project_id = :project"
    " AND ((j.status = 'queued' AND j.run_after <= now())"
    " OR (j.status = 'running' AND j.lease_expires_at < now()))"
    " ORDER BY j.run_after, j.created_at LIMIT :limit FOR UPDATE OF j SKIP LOCKED),"
    " within AS (SELECT id FROM (SELECT id, sum(size) OVER "
    "(ORDER BY run_after, created_at, id) AS running FROM candidates) counted"
    " WHERE running <= :budget) "
    "UPDATE jobs SET status = 'running', attempts = attempts + 1, worker_id = :worker, "
    "lease_expires_at = now() + make_interval(secs => :lease), updated_at = now() "
    "WHERE id IN (SELECT id FROM within) AND project_id = :project "
    "RETURNING id"
)


def new_job(
    *,
    project_id: uuid.UUID,
    knowledge_base_id: uuid.UUID,
    document_id: uuid.UUID | None,
    kind: str,
    payload: dict[str, Any],
    max_attempts: int,
) -> Job:
    return Job(
        id=uuid.uuid4(),
        project_id=project_id,
        knowledge_base_id=knowledge_base_id,
        document_id=document_id,
        kind=kind,
        status="queued",
        payload=payload,
        max_attempts=max_attempts,
    )


async def claim(
    session: AsyncSession, *, worker_id: str, lease_s: float, graph_running: int = 2
) -> Job | None:
    """Take the oldest runnable job (or one whose worker's lease ran out), or None; graph jobs
    only when nothing else is runnable and fewer than `graph_running` run."""
    job_id = await session.scalar(CLAIM_SQL, {"worker": worker_id, "lease": lease_s})
    if job_id is None:
        job_id = await session.scalar(
            GRAPH_CLAIM_SQL, {"worker": worker_id, "lease": lease_s, "most": graph_running}
        )
    if job_id is None:
        return None
    return await session.get(Job, job_id, populate_existing=True)


async def claim_more(
    session: AsyncSession,
    like: Job,
    *,
    limit: int,
    max_bytes: int,
    worker_id: str,
    lease_s: float,
) -> list[Job]:
    """Up to `limit` more runnable jobs of `like`'s kind and knowledge base (hence project),
    whose documents hold at most `max_bytes` together."""
    if limit < 1:
        return []
    ids = list(
        await session.scalars(
            CLAIM_MORE_SQL,
            {
                "worker": worker_id,
                "lease": lease_s,
                "kind": like.kind,
                "kb": like.knowledge_base_id,
                "project": like.project_id,
                "limit": limit,
                "budget": max_bytes,
            },
        )
    )
    if not ids:
        return []
    jobs = await session.scalars(
        select(Job)
        .where(Job.id.in_(ids))
        .order_by(Job.run_after, Job.created_at)
        .execution_options(populate_existing=True)
    )
    return list(jobs)


async def extend_lease(
    session: AsyncSession, job_ids: Sequence[uuid.UUID], *, worker_id: str, lease_s: float
) -> int:
    """Keep running jobs ours; how many still are (not gone, not taken over)."""
    result = await session.execute(
        update(Job)
        .where(Job.id.in_(job_ids), Job.worker_id == worker_id, Job.status == "running")
        .values(lease_expires_at=func.now() + timedelta(seconds=lease_s))
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


async def finish(
    session: AsyncSession, *job_ids: uuid.UUID, status: str, error: str | None = None
) -> None:
    await session.execute(
        update(Job)
        .where(Job.id.in_(job_ids))
        .values(
            status=status,
            last_error=error,
            finished_at=func.now(),
            lease_expires_at=None,
            updated_at=func.now(),
        )
    )


async def retry_later(
    session: AsyncSession, job_id: uuid.UUID, *, delay_s: float, error: str
) -> None:
    await session.execute(
        update(Job)
        .where(Job.id == job_id)
        .values(
            status="queued",
            last_error=error,
            run_after=func.now() + timedelta(seconds=delay_s),
            lease_expires_at=None,
            worker_id=None,
            updated_at=func.now(),
        )
    )


async def release(session: AsyncSession, job_ids: Sequence[uuid.UUID], *, worker_id: str) -> int:
    """Give back jobs this worker still holds (it is stopping): queued to run now, the attempt
    their claim counted not counted. A job settled or taken over meanwhile is left alone."""
    result = await session.execute(
        update(Job)
        .where(Job.id.in_(job_ids), Job.worker_id == worker_id, Job.status == "running")
        .values(
            status="queued",
            attempts=func.greatest(Job.attempts - 1, 0),
            run_after=func.now(),
            lease_expires_at=None,
            worker_id=None,
            updated_at=func.now(),
        )
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


async def retry_or_fail(session: AsyncSession, job: Job, *, reason: str, delay_s: float) -> None:
    """After a failed attempt: fail the job when it has used its attempts, else run it later."""
    if job.attempts >= job.max_attempts:
        await finish(session, job.id, status="failed", error=reason)
    else:
        await retry_later(session, job.id, delay_s=delay_s, error=reason)


async def cancel_for_documents(session: AsyncSession, document_ids: Sequence[uuid.UUID]) -> None:
    await session.execute(
        update(Job)
        .where(Job.document_id.in_(document_ids), Job.status.in_(("queued", "running")))
        .values(status="cancelled", finished_at=func.now(), updated_at=func.now())
    )


async def pending_count(session: AsyncSession) -> int:
    total = await session.scalar(
        select(func.count()).select_from(Job).where(Job.status.in_(("queued", "running")))
    )
    return int(total or 0)
