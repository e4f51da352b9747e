"""Search analytics: rows after each search, the window's aggregates, pruning."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
from fastapi import FastAPI
from sqlalchemy import text

from app.analytics import service as analytics
from tests.operations.helpers import knowledge_base

DOCS = {"leave": "# Leave\n\nTwenty-five days of leave a year.", "pension": "Pension, monthly."}


async def search(client: httpx.AsyncClient, kb: str, query: str) -> dict[str, object]:
    response = await client.post(
        f"/v1/knowledge-bases/{kb}/search", json={"query": query, "mode": "text"}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


async def test_analytics_after_searches(client: httpx.AsyncClient) -> None:
    kb = await knowledge_base(client, "analytics", DOCS)
    other = await knowledge_base(client, "elsewhere", {"x": "Leave elsewhere."})
    found = [await search(client, kb, q) for q in ("leave", "leave", "Leave ", "pension")]
    for _ in range(2):
        assert (await search(client, kb, "unicorn"))["hits"] == []
    await search(client, other, "leave")  # another knowledge base: not counted here
    leave_score = found[0]["hits"][0]["score"]  # type: ignore[index]

    response = await client.get(f"/v1/knowledge-bases/{kb}/analytics", params={"low_score": 1})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["queries"] == 6
    assert body["zero_hit"] == 2
    today = datetime.now(UTC).date().isoformat()
    assert body["queries_per_day"] == [{"day": today, "queries": 6, "zero_hit": 2}]
    latency = body["latency_ms"]
    assert 0 < latency["p50"] <= latency["p90"] <= latency["p95"] <= latency["p99"]
    top = [(q["query"].strip().lower(), q["count"]) for q in body["top_queries"]]
    assert top == [("leave", 3), ("unicorn", 2), ("pension", 1)]
    assert [(q["query"], q["count"]) for q in body["zero_hit_queries"]] == [("unicorn", 2)]
    low = {q["query"].strip().lower() for q in body["low_score_queries"]}
    assert ("leave" in low) == (leave_score < 1)
    assert "unicorn" not in low  # no hit at all: a zero-hit query, not a weak one
    assert body["query_text_stored"] is True

    window = await client.get(
        f"/v1/knowledge-bases/{kb}/analytics",
        params={
            "from": (datetime.now(UTC) + timedelta(hours=1)).isoformat(),
            "to": (datetime.now(UTC) + timedelta(hours=2)).isoformat(),
        },
    )
    assert window.status_code == 200
    assert window.json()["queries"] == 0
    assert window.json()["latency_ms"]["p50"] is None


async def test_multi_search_counts_for_each_knowledge_base(client: httpx.AsyncClient) -> None:
    a = await knowledge_base(client, "multi-a", {"a": "Leave a."})
    b = await knowledge_base(client, "multi-b", {"b": "Leave b."})
    response = await client.post(
        "/v1/search", json={"query": "leave", "mode": "text", "knowledge_bases": [a, b]}
    )
    assert response.status_code == 200
    for kb in (a, b):
        body = (await client.get(f"/v1/knowledge-bases/{kb}/analytics")).json()
        assert body["queries"] == 1


async def test_bad_window_is_a_422(client: httpx.AsyncClient) -> None:
    kb = await knowledge_base(client, "window", {})
    now = datetime.now(UTC)
    response = await client.get(
        f"/v1/knowledge-bases/{kb}/analytics",
        params={"from": now.isoformat(), "to": (now - timedelta(days=1)).isoformat()},
    )
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["type"].endswith("/validation-error")
    bad = await client.get(f"/v1/knowledge-bases/{kb}/analytics", params={"from": "yesterday"})
    assert bad.status_code == 422


async def test_rows_past_the_retention_are_pruned(client: httpx.AsyncClient, app: FastAPI) -> None:
    kb = await knowledge_base(client, "retention", DOCS)
    await search(client, kb, "leave")
    await search(client, kb, "pension")
    database = app.state.database
    async with database.transaction() as session:
        await session.execute(
            text(
                "UPDATE search_queries SET created_at = now() - interval '40 days' "
                "WHERE query = 'pension'"
            )
        )
    await analytics.prune(database, retention_days=30)
    async with database.transaction() as session:
        left = list(await session.scalars(text("SELECT query FROM search_queries")))
    assert left == ["leave"]
    await analytics.prune(database, retention_days=0)  # 0 keeps everything
    async with database.transaction() as session:
        assert await session.scalar(text("SELECT count(*) FROM search_queries")) == 1
