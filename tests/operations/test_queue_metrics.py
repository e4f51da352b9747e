"""Queue depth and job age, read from the jobs table at scrape time."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.config import Settings
from tests.operations.helpers import knowledge_base, samples, value


@pytest.fixture
def settings(database_url: str) -> Settings:
    # No job loops: a queued job stays queued while the test looks at it.
    return Settings(env="test", database_url=database_url, workers=0)


async def test_queue_depth_and_oldest_age(client: httpx.AsyncClient, app: FastAPI) -> None:
    kb = await knowledge_base(client, "queue", {})
    async with app.state.database.transaction() as session:
        project = await session.scalar(text("SELECT project_id FROM knowledge_bases"))
        for minutes in (2, 1):
            await session.execute(
                text(
                    "INSERT INTO jobs (id, project_id, knowledge_base_id, kind, status, payload, "
                    "max_attempts, attempts, run_after) VALUES (gen_random_uuid(), :p, :kb, "
                    "'embed', 'queued', '{}', 3, 0, now() - make_interval(mins => :m))"
                ),
                {"p": project, "kb": kb, "m": minutes},
            )
    response = await client.get("/metrics")
    assert response.status_code == 200
    found = samples(response.text)
    assert value(found, "arbor_jobs", kind="embed", status="queued") == 2
    age = value(found, "arbor_job_oldest_queued_age_seconds", kind="embed")
    assert 120 <= age < 180
