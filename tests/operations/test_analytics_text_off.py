"""ARBOR_ANALYTICS_TEXT=off: searches are counted, their words are not kept."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.config import Settings
from tests.operations.helpers import knowledge_base


@pytest.fixture
def settings(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.setenv("ARBOR_ANALYTICS_TEXT", "off")
    return Settings(env="test", database_url=database_url)


async def test_no_query_text_is_stored(client: httpx.AsyncClient, app: FastAPI) -> None:
    kb = await knowledge_base(client, "private", {"a": "Leave policy."})
    for query in ("leave", "salary of ann"):
        response = await client.post(
            f"/v1/knowledge-bases/{kb}/search", json={"query": query, "mode": "text"}
        )
        assert response.status_code == 200
    async with app.state.database.transaction() as session:
        rows = list(await session.execute(text("SELECT query, hits FROM search_queries")))
    assert sorted((q, h) for q, h in rows) == [(None, 0), (None, 1)]
    body = (await client.get(f"/v1/knowledge-bases/{kb}/analytics")).json()
    assert body["queries"] == 2
    assert body["zero_hit"] == 1
    assert body["top_queries"] == body["zero_hit_queries"] == body["low_score_queries"] == []
    assert body["query_text_stored"] is False
