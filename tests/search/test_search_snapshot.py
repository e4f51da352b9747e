"""A search reads one snapshot: documents decided first, their chunks scored after, alike."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.search import repository
from tests.search.corpus import add_document, create_kb, search


async def test_a_version_committed_mid_search_does_not_empty_a_filtered_search(
    client: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = await create_kb(client, "snapshot")
    old, _ = await add_document(app, kb, ["glacier melt rates"], external_id="report")
    decide = repository.prefilter_documents

    async def decide_then_replace(*args: Any, **kwargs: Any) -> Any:
        """Between the documents-first query and the statement, a new version replaces the
        old one in another transaction, as an upload of the same external_id does."""
        chosen = await decide(*args, **kwargs)
        async with app.state.database.transaction() as other:
            await other.execute(text("DELETE FROM documents WHERE id = :id"), {"id": old})
        await add_document(app, kb, ["glacier melt rates, revised"], external_id="report")
        return chosen

    monkeypatch.setattr(repository, "prefilter_documents", decide_then_replace)
    found = await search(client, kb, query="glacier", filter={"external_id": "report"})
    # The old version, as the documents-first query saw it: not an empty result.
    assert [hit["doc_id"] for hit in found["hits"]] == [str(old)]
    monkeypatch.setattr(repository, "prefilter_documents", decide)
    again = await search(client, kb, query="glacier", filter={"external_id": "report"})
    assert [hit["text"] for hit in again["hits"]] == ["glacier melt rates, revised"]


async def test_only_marked_routes_read_in_one_snapshot(app: FastAPI) -> None:
    async with app.state.database.transaction(one_snapshot=True) as session:
        level = await session.scalar(text("SHOW transaction_isolation"))
        assert level == "repeatable read"
    async with app.state.database.transaction() as session:
        level = await session.scalar(text("SHOW transaction_isolation"))
        assert level == "read committed"
