"""`POST .../chunks/bulk?defer_index=true`: load without HNSW maintenance, rebuild once."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.chunks import deferred_index
from app.chunks.vector_index import (
    BUILD_MEMORY_MAX_MB,
    BUILD_MEMORY_MIN_MB,
    build_memory_mb,
    index_name,
)

KB = "/v1/knowledge-bases/kb"


@pytest.fixture(autouse=True)
def quick_debounce(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deferred_index, "DEBOUNCE_S", 0.2)


@pytest.fixture
async def kb(client: httpx.AsyncClient) -> dict[str, Any]:
    response = await client.post(
        "/v1/knowledge-bases",
        json={"name": "kb", "embedding": {"provider": "none", "dimensions": 8}},
    )
    assert response.status_code == 201
    body: dict[str, Any] = response.json()
    return body


def unit(hot: int) -> list[float]:
    return [1.0 if i == hot else 0.0 for i in range(8)]


async def index_state(app: FastAPI, kb: dict[str, Any]) -> bool | None:
    """True: a valid index; False: an invalid one; None: none."""
    async with app.state.database.transaction() as session:
        valid = await session.scalar(
            text("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(:name)"),
            {"name": f"public.{index_name(uuid.UUID(kb['id']))}"},
        )
    return None if valid is None else bool(valid)


async def wait_for_job(client: httpx.AsyncClient, job_id: str) -> dict[str, Any]:
    job: dict[str, Any] = {}
    for _ in range(300):
        job = (await client.get(f"{KB}/jobs/{job_id}")).json()
        if job["status"] not in ("queued", "running"):
            return job
        await asyncio.sleep(0.05)
    raise AssertionError(f"job still {job['status']}")


def chunks(start: int, count: int) -> list[dict[str, Any]]:
    return [
        {
            "doc_id": f"doc-{i // 4}",
            "chunk_index": i % 4,
            "text": f"chunk {i}",
            "vector": unit(i % 8),
        }
        for i in range(start, start + count)
    ]


async def test_a_deferred_load_drops_the_index_and_one_job_rebuilds_it(
    client: httpx.AsyncClient, app: FastAPI, kb: dict[str, Any]
) -> None:
    assert await index_state(app, kb) is True
    first = await client.post(f"{KB}/chunks/bulk?defer_index=true", json={"chunks": chunks(0, 8)})
    assert first.status_code == 200, first.text
    assert await index_state(app, kb) is None
    second = await client.post(f"{KB}/chunks/bulk?defer_index=true", json={"chunks": chunks(8, 8)})
    # The second request pushed the same queued job back instead of adding one.
    assert second.json()["index_job_id"] == first.json()["index_job_id"]

    # Meanwhile vector search is exact and complete.
    found = await client.post(
        f"{KB}/search", json={"vector": unit(3), "mode": "vector", "top_k": 20}
    )
    assert found.status_code == 200
    assert [hit["score"] for hit in found.json()["hits"]][:2] == pytest.approx([1.0, 1.0])

    job = await wait_for_job(client, first.json()["index_job_id"])
    assert job["status"] == "succeeded"
    assert job["kind"] == "vector_index"
    assert await index_state(app, kb) is True
    count = (await client.get(f"{KB}/chunks/count")).json()
    assert count == {"count": 16, "embedded": 16, "not_embedded": 0}


async def test_a_failed_deferred_load_still_gets_its_index_back(
    client: httpx.AsyncClient, app: FastAPI, kb: dict[str, Any]
) -> None:
    bad = chunks(0, 2)
    bad[1]["vector"] = [1.0, 0.0]  # wrong dimension: the whole request is refused
    response = await client.post(f"{KB}/chunks/bulk?defer_index=true", json={"chunks": bad})
    assert response.status_code == 422
    assert (await client.get(f"{KB}/chunks/count")).json()["count"] == 0
    for _ in range(300):
        if await index_state(app, kb):
            break
        await asyncio.sleep(0.05)
    assert await index_state(app, kb) is True


async def test_an_invalid_index_left_by_an_interrupted_build_is_rebuilt(
    client: httpx.AsyncClient, app: FastAPI, kb: dict[str, Any]
) -> None:
    async with app.state.database.transaction() as session:
        await session.execute(
            text("UPDATE pg_index SET indisvalid = false WHERE indexrelid = to_regclass(:name)"),
            {"name": f"public.{index_name(uuid.UUID(kb['id']))}"},
        )
    assert await index_state(app, kb) is False
    async with app.state.database.transaction() as session:
        from app.models import KnowledgeBase

        row = await session.get(KnowledgeBase, uuid.UUID(kb["id"]))
    assert row is not None
    assert await deferred_index.build(app.state.database, row) is True
    assert await index_state(app, kb) is True
    assert await deferred_index.build(app.state.database, row) is False


async def test_without_defer_the_index_is_kept(
    client: httpx.AsyncClient, app: FastAPI, kb: dict[str, Any]
) -> None:
    response = await client.post(f"{KB}/chunks/bulk", json={"chunks": chunks(0, 4)})
    assert response.status_code == 200
    assert response.json()["index_job_id"] is None
    assert await index_state(app, kb) is True


async def test_one_drop_or_build_at_a_time(
    client: httpx.AsyncClient, app: FastAPI, kb: dict[str, Any]
) -> None:
    from app.models import KnowledgeBase

    async with app.state.database.transaction() as session:
        row = await session.get(KnowledgeBase, uuid.UUID(kb["id"]))
    assert row is not None
    key = uuid.UUID(kb["id"]).int & 0x7FFF_FFFF_FFFF_FFFF
    async with app.state.database.engine.connect() as holder:
        await holder.execute(text("SELECT pg_advisory_lock(:k)"), {"k": key})
        with pytest.raises(deferred_index.IndexBusy):
            await deferred_index.build(app.state.database, row)
        # A deferring load that cannot take the lock keeps the index.
        response = await client.post(
            f"{KB}/chunks/bulk?defer_index=true", json={"chunks": chunks(0, 4)}
        )
        assert response.status_code == 200
        assert await index_state(app, kb) is True
        await holder.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})


def test_the_build_memory_holds_the_graph_of_the_knowledge_base_within_bounds() -> None:
    # pgvector's in-memory graph of 1M 384-d vectors at m 16 is about 2.2 GB; with less the
    # rest of the build inserts vector by vector (hours).
    million = build_memory_mb(1_000_000, dimensions=384, m=16)
    assert 2_200 < million < BUILD_MEMORY_MAX_MB
    assert build_memory_mb(2_000_000, dimensions=384, m=16) == BUILD_MEMORY_MAX_MB
    assert build_memory_mb(10_000, dimensions=384, m=16) == BUILD_MEMORY_MIN_MB
    assert build_memory_mb(0, dimensions=8, m=16) == BUILD_MEMORY_MIN_MB
    # halfvec above 2,000 dimensions: two bytes a dimension, so 3,072 take less than 2,000.
    assert build_memory_mb(200_000, dimensions=3072, m=16) < build_memory_mb(
        200_000, dimensions=2000, m=16
    )
