"""Common terms (app/search/text_statistics.py): counted per knowledge base by a job, they
score but do not define the full-text candidate set."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select, text

from app.models import Job, TextStatistics
from app.search import service, text_statistics
from tests.search.corpus import add_document, create_kb, search


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # Query lexemes define candidates while their summed frequency stays within 5 chunks.
    monkeypatch.setattr(text_statistics, "MATCH_BUDGET", 5)


async def corpus(client: httpx.AsyncClient, app: FastAPI) -> dict[str, Any]:
    kb = await create_kb(client, "cells")
    for i in range(10):
        await add_document(app, kb, [f"cell growth measured in sample {i}"], title=f"growth {i}")
    await add_document(app, kb, ["cell apoptosis after treatment"], title="apoptosis")
    await add_document(app, kb, ["apoptosis without any cell growth"], title="both")
    return kb


async def refresh(client: httpx.AsyncClient, kb: dict[str, Any]) -> dict[str, Any]:
    response = await client.post(f"/v1/knowledge-bases/{kb['id']}/text-statistics/refresh")
    assert response.status_code == 202, response.text
    job: dict[str, Any] = response.json()
    assert job["kind"] == "text_stats"
    for _ in range(200):
        if job["status"] not in ("queued", "running"):
            break
        await asyncio.sleep(0.05)
        job = (await client.get(f"/v1/knowledge-bases/{kb['id']}/jobs/{job['id']}")).json()
    assert job["status"] == "succeeded", job
    service._text_statistics.clear()
    return job


async def stored(app: FastAPI, kb: dict[str, Any]) -> TextStatistics | None:
    async with app.state.database.transaction() as session:
        return await session.get(TextStatistics, uuid.UUID(kb["id"]))


async def test_refresh_counts_the_common_lexemes_of_one_knowledge_base(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await corpus(client, app)
    other = await create_kb(client, "other")
    for i in range(4):
        await add_document(app, other, [f"apoptosis {i}"])

    await refresh(client, kb)

    stats = await stored(app, kb)
    assert stats is not None
    assert stats.chunk_count == 12
    assert stats.min_df == 2
    # Lexemes of one chunk ('treatment', the digits) are not kept; nor the other knowledge
    # base's, which is within the budget and needs no statistics.
    assert stats.frequencies == {"cell": 12, "growth": 11, "measur": 10, "sampl": 10, "apoptosi": 2}
    assert await stored(app, other) is None


async def test_a_knowledge_base_below_the_minimum_keeps_no_statistics(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "tiny")
    await add_document(app, kb, ["one chunk only"])
    await refresh(client, kb)
    assert await stored(app, kb) is None


async def test_common_terms_score_but_do_not_define_candidates(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await corpus(client, app)
    before = await search(client, kb, query="cell apoptosis", mode="text", top_k=20)
    await refresh(client, kb)
    # Two candidates wanted: the two chunks holding 'apoptosis' are enough.
    after = await search(client, kb, query="cell apoptosis", mode="text", top_k=2, candidates=2)

    # Before: every chunk holding 'cell' matched; after, only those holding the rare term.
    assert before["candidates"]["text"] == 12
    assert after["candidates"]["text"] == 2
    assert after["text_query"] == "'apoptosi'"
    # The chunks that still match score exactly as before: 'cell' keeps its true frequency.
    scores_before = {hit["chunk_id"]: hit["score"] for hit in before["hits"]}
    assert [hit["doc_title"] for hit in after["hits"]] == ["apoptosis", "both"]
    for hit in after["hits"]:
        assert hit["score"] == pytest.approx(scores_before[hit["chunk_id"]], rel=1e-9)


async def test_the_rarest_term_defines_when_every_term_is_common(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await corpus(client, app)
    await refresh(client, kb)
    found = await search(client, kb, query="cell growth", mode="text", top_k=2, candidates=2)
    # The rarest lexeme always defines candidates.
    assert found["text_query"] == "'growth'"
    wanting_more = await search(client, kb, query="cell growth", mode="text", candidates=20)
    assert wanting_more["text_query"] == "'cell' | 'growth'"
    assert wanting_more["candidates"]["text"] == 12


async def test_rare_terms_or_all_common_terms_match(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await corpus(client, app)
    await refresh(client, kb)
    found = await search(
        client, kb, query="apoptosis cell growth", mode="text", top_k=2, candidates=2
    )
    assert found["text_query"] == "'apoptosi' | ('growth' & 'cell')"
    assert found["candidates"]["text"] == 2


async def test_websearch_syntax_is_never_rewritten(client: httpx.AsyncClient, app: FastAPI) -> None:
    kb = await corpus(client, app)
    await refresh(client, kb)
    found = await search(
        client, kb, query="cell -growth", mode="text", text_match="websearch", top_k=20
    )
    assert found["text_query"] == "'cell' & !'growth'"
    assert found["candidates"]["text"] == 1


async def test_search_queues_one_refresh_when_statistics_are_missing_or_stale(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await corpus(client, app)

    async def refresh_jobs() -> int:
        async with app.state.database.transaction() as session:
            return int(
                await session.scalar(
                    select(func.count())
                    .select_from(Job)
                    .where(Job.knowledge_base_id == uuid.UUID(kb["id"]), Job.kind == "text_stats")
                )
                or 0
            )

    await search(client, kb, query="cell", mode="text")
    assert await refresh_jobs() == 1
    for _ in range(200):
        if await stored(app, kb) is not None:
            break
        await asyncio.sleep(0.05)
    stats = await stored(app, kb)
    assert stats is not None
    assert stats.chunk_count == 12

    # Fresh statistics: no new job. Then the knowledge base grows by half: stale, one more.
    service._text_statistics.clear()
    await search(client, kb, query="cell", mode="text")
    assert await refresh_jobs() == 1
    for i in range(6):
        await add_document(app, kb, [f"new chunk {i}"])
    service._text_statistics.clear()
    await search(client, kb, query="cell", mode="text")
    assert await refresh_jobs() == 2


async def test_statistics_are_private_to_their_project(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await corpus(client, app)
    await refresh(client, kb)
    async with app.state.database.transaction() as session:
        await session.execute(text("SET LOCAL ROLE arbor_app"))
        await session.execute(
            text("SELECT set_config('arbor.project_id', :p, true)"), {"p": str(uuid.uuid4())}
        )
        visible = await session.scalar(select(func.count()).select_from(TextStatistics))
    assert visible == 0


def test_lexemes_define_rarest_first_within_the_budget() -> None:
    stats = text_statistics.TermStatistics(
        chunk_count=1000, min_df=2, frequencies={"a": 3, "b": 1, "c": 400, "d": 2}
    )
    # 'x' has no count (held by fewer than min_df chunks): it always defines, costing min_df.
    defining, common = stats.split(["c", "x", "a", "b", "d"], chunk_count=1000, wanted=1)
    assert defining == ["x", "b", "d"]  # 2 + 1 + 2: the budget of 5 is spent
    assert common == {"a": 3, "c": 400}


def test_frequencies_scale_with_the_chunk_count() -> None:
    stats = text_statistics.TermStatistics(
        chunk_count=100, min_df=2, frequencies={"a": 10, "b": 40}
    )
    defining, common = stats.split(["a", "b"], chunk_count=200, wanted=1)
    assert defining == ["a"]
    assert common == {"b": 80}


def test_lexemes_define_beyond_the_budget_until_enough_chunks_may_match() -> None:
    stats = text_statistics.TermStatistics(
        chunk_count=1000, min_df=2, frequencies={"a": 3, "c": 400, "e": 900}
    )
    # 'x' (no count) and 'a' may hold as few as 1 + 3 chunks: 'c' defines too, over budget.
    defining, common = stats.split(["e", "c", "x", "a"], chunk_count=1000, wanted=100)
    assert defining == ["x", "a", "c"]
    assert common == {"e": 900}


async def test_a_filtered_search_is_not_pruned(client: httpx.AsyncClient, app: FastAPI) -> None:
    kb = await corpus(client, app)
    await refresh(client, kb)
    found = await search(
        client,
        kb,
        query="cell apoptosis",
        mode="text",
        top_k=2,
        candidates=2,
        filter={"doc_title": {"$contains": "growth"}},
    )
    assert found["text_query"] == "'cell' | 'apoptosi'"
    assert found["hits"][0]["doc_title"].startswith("growth")


async def test_a_failed_refresh_is_recorded_and_retried_later(
    client: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = await corpus(client, app)

    async def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(text_statistics, "refresh", broken)
    response = await client.post(f"/v1/knowledge-bases/{kb['id']}/text-statistics/refresh")
    job_id = response.json()["id"]
    job: dict[str, Any] = {}
    for _ in range(200):
        job = (await client.get(f"/v1/knowledge-bases/{kb['id']}/jobs/{job_id}")).json()
        if job.get("last_error"):
            break
        await asyncio.sleep(0.05)
    assert job["status"] == "queued"
    assert job["last_error"] == "RuntimeError: disk full"
    assert await stored(app, kb) is None


async def test_the_statistics_are_shown(client: httpx.AsyncClient, app: FastAPI) -> None:
    kb = await corpus(client, app)
    before = (await client.get(f"/v1/knowledge-bases/{kb['id']}/text-statistics")).json()
    assert before["match_budget"] == 5
    assert before["chunk_count"] == 12
    assert before["pruning"] is False
    assert before["stale"] is True
    assert before["lexemes"] == 0
    assert before["counted_chunks"] is None

    await refresh(client, kb)
    after = (await client.get(f"/v1/knowledge-bases/{kb['id']}/text-statistics")).json()
    assert after["pruning"] is True
    assert after["stale"] is False
    assert after["counted_chunks"] == 12
    assert after["min_df"] == 2
    assert after["lexemes"] == 5
    assert after["most_common"][:2] == [
        {"lexeme": "cell", "chunks": 12},
        {"lexeme": "growth", "chunks": 11},
    ]
