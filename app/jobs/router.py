"""HTTP routes for jobs: start an embedding backfill, watch a job."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, BackgroundTasks, Request, status
from sqlalchemy import bindparam, select

from app.auth.dependencies import require_scope_by_method
from app.chunks import repository as chunks_repository
from app.db.dependencies import SessionDep, replica_read
from app.jobs import repository
from app.jobs.schemas import EmbedPendingResult, JobRead
from app.kit.errors import Conflict, NotFound
from app.kit.problems import problem_responses
from app.knowledge_bases.dependencies import KnowledgeBaseDep
from app.models import Job
from app.search import text_statistics

router = APIRouter(
    prefix="/v1/knowledge-bases/{kb}",
    tags=["jobs"],
    dependencies=[require_scope_by_method],
    responses=problem_responses(401, 403, 429),
)


def to_read(job: Job) -> JobRead:
    return JobRead.model_validate(job, from_attributes=True)


@router.post(
    "/chunks/embed",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="jobs-embed_pending",
    summary="Embed every chunk stored without a vector (after the embedder was down)",
    responses=problem_responses(404, 409),
)
async def embed_pending(
    request: Request, kb: KnowledgeBaseDep, session: SessionDep, background: BackgroundTasks
) -> EmbedPendingResult:
    if kb.embedding_provider == "none":
        raise Conflict(f"Knowledge base {kb.name!r} has no embedder; supply vectors instead.")
    total, embedded = await chunks_repository.counts(session, kb)
    job = repository.new_job(
        project_id=kb.project_id,
        knowledge_base_id=kb.id,
        document_id=None,
        kind="embed",
        payload={},
        max_attempts=request.app.state.settings.job_max_attempts,
    )
    session.add(job)
    await session.flush()
    await session.refresh(job)
    background.add_task(request.app.state.poke_workers)
    return EmbedPendingResult(job=to_read(job), pending=total - embedded)


@router.post(
    "/text-statistics/refresh",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="jobs-refresh_text_statistics",
    summary="Recount the knowledge base's common terms now (search also queues this itself)",
    responses=problem_responses(404),
)
async def refresh_text_statistics(
    request: Request, kb: KnowledgeBaseDep, session: SessionDep, background: BackgroundTasks
) -> JobRead:
    job = await text_statistics.schedule_refresh(
        session, knowledge_base_id=kb.id, project_id=kb.project_id
    )
    await session.refresh(job)
    background.add_task(request.app.state.poke_workers)
    return to_read(job)


_JOB = select(Job).where(Job.id == bindparam("id"), Job.knowledge_base_id == bindparam("kb"))


@router.get(
    "/jobs/{job_id}",
    operation_id="jobs-get",
    summary="A background job's state",
    responses=problem_responses(404, 422),
)
@replica_read
async def get_job(job_id: uuid.UUID, kb: KnowledgeBaseDep, session: SessionDep) -> JobRead:
    job = await session.scalar(_JOB, {"id": job_id, "kb": kb.id})
    if job is None:
        raise NotFound(f"No job {job_id} in knowledge base {kb.name!r}.")
    return to_read(job)
