"""Stopping a worker pool (SIGTERM) gives back the jobs its loops held, at once and unpenalised."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import pytest
from sqlalchemy import select, text

from app.config import Settings
from app.db.engine import Database
from app.jobs import repository
from app.jobs.worker import WorkerPool
from app.models import Job


@pytest.fixture
def settings(database_url: str) -> Settings:
    # No job loops in the app: the pools under test are the only ones claiming.
    return Settings(env="test", database_url=database_url, workers=0)


async def queue_job(client: httpx.AsyncClient, database: Database) -> uuid.UUID:
    created = await client.post("/v1/knowledge-bases", json={"name": "stop"})
    assert created.status_code == 201, created.text
    kb_id = uuid.UUID(created.json()["id"])
    async with database.transaction() as session:
        project_id = await session.scalar(
            text("SELECT project_id FROM knowledge_bases WHERE id = :id"), {"id": kb_id}
        )
        job = repository.new_job(
            project_id=project_id,
            knowledge_base_id=kb_id,
            document_id=None,
            kind="probe",
            payload={},
            max_attempts=5,
        )
        session.add(job)
    return job.id


async def read_job(database: Database, job_id: uuid.UUID) -> Job:
    async with database.transaction() as session:
        job = await session.scalar(select(Job).where(Job.id == job_id))
    assert job is not None
    return job


async def test_stop_releases_the_jobs_its_loops_hold(
    client: httpx.AsyncClient, settings: Settings, database_url: str
) -> None:
    database = Database(database_url, settings)
    try:
        job_id = await queue_job(client, database)
        started = asyncio.Event()

        async def never_ends(_job: Job) -> None:
            started.set()
            await asyncio.Event().wait()

        pool = WorkerPool(database, settings, {"probe": never_ends}, concurrency=1)
        pool.start()
        await asyncio.wait_for(started.wait(), timeout=10)
        claimed = await read_job(database, job_id)
        assert (claimed.status, claimed.attempts) == ("running", 1)
        await pool.stop()

        released = await read_job(database, job_id)
        assert released.status == "queued"
        assert released.attempts == 0  # the stop did not cost an attempt
        assert released.worker_id is None
        assert released.lease_expires_at is None
        # Runnable now, not after the lease: the next pool takes it on its first try.
        ran: list[uuid.UUID] = []

        async def finishes(job: Job) -> None:
            ran.append(job.id)
            async with database.transaction() as session:
                await repository.finish(session, job.id, status="succeeded")

        assert await WorkerPool(database, settings, {"probe": finishes}, concurrency=1).run_once()
        assert ran == [job_id]
        assert (await read_job(database, job_id)).attempts == 1
    finally:
        await database.dispose()


async def test_stop_leaves_settled_jobs_alone(
    client: httpx.AsyncClient, settings: Settings, database_url: str
) -> None:
    database = Database(database_url, settings)
    try:
        job_id = await queue_job(client, database)

        async def finishes(job: Job) -> None:
            async with database.transaction() as session:
                await repository.finish(session, job.id, status="succeeded")

        pool = WorkerPool(database, settings, {"probe": finishes}, concurrency=1)
        assert await pool.run_once()
        await pool.stop()
        settled = await read_job(database, job_id)
        assert (settled.status, settled.attempts) == ("succeeded", 1)
    finally:
        await database.dispose()
