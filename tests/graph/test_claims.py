"""Graph jobs yield to every other job and run at most `graph_max_running` at once."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI
from sqlalchemy import text

from app.jobs import repository
from app.models import Job


async def test_graph_jobs_wait_for_other_work_and_are_capped(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = (await client.post("/v1/knowledge-bases", json={"name": "claims"})).json()
    database = app.state.database
    async with database.transaction() as session:
        project = await session.scalar(
            text("SELECT project_id FROM knowledge_bases WHERE id = :k"), {"k": uuid.UUID(kb["id"])}
        )

        def job(kind: str) -> Job:
            return repository.new_job(
                project_id=project,
                knowledge_base_id=uuid.UUID(kb["id"]),
                document_id=None,
                kind=kind,
                payload={},
                max_attempts=1,
            )

        graph = [job("graph"), job("graph"), job("graph")]
        session.add_all(graph)
        await session.flush()
        other = job("test-other")
        session.add(other)
        await session.flush()
        # Claimed within this transaction, so the app's own worker loops cannot take them.
        first = await repository.claim(session, worker_id="t", lease_s=60, graph_running=2)
        assert first is not None
        assert first.id == other.id  # newer, but not a graph job
        second = await repository.claim(session, worker_id="t", lease_s=60, graph_running=2)
        third = await repository.claim(session, worker_id="t", lease_s=60, graph_running=2)
        assert second is not None
        assert third is not None
        assert {second.kind, third.kind} == {"graph"}
        # Two graph jobs run: the third waits although nothing else is queued.
        assert await repository.claim(session, worker_id="t", lease_s=60, graph_running=2) is None
        await session.execute(
            text("DELETE FROM jobs WHERE id = ANY(:ids)"), {"ids": [j.id for j in [*graph, other]]}
        )
