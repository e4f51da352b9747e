"""Only stored chunks of the searched knowledge bases' live documents are ever returned.

A document's chunks are written in the transaction that makes it `ready`; a document that is
re-processed (reindex: `queued` ... `embedding`) keeps its old chunks searchable until the new
ones replace them; a `failed` document's chunks are never returned.
"""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.search import plans, repository
from tests.search.corpus import add_document, create_kb, search, titles

REPROCESSING = ["queued", "parsing", "chunking", "embedding"]


async def test_failed_documents_never_returned_reprocessed_ones_stay(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "states")
    await add_document(app, kb, ["quartz crystals oscillate"], title="ready")
    await add_document(app, kb, ["quartz crystals oscillate"], title="failed", status="failed")
    for status in REPROCESSING:
        await add_document(app, kb, ["quartz crystals oscillate"], title=status, status=status)
    expected = sorted(["ready", *REPROCESSING])
    for mode in ("hybrid", "vector", "text"):
        found = await search(client, kb, query="quartz crystals oscillate", mode=mode)
        assert sorted(titles(found)) == expected, mode
    short = await search(client, kb, query="quarz", mode="text")
    assert sorted(titles(short)) == expected


async def test_documents_are_looked_up_only_where_filters_or_failed_ones_need_it(
    client: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = await create_kb(client, "lookups")
    await add_document(app, kb, ["quartz crystals oscillate"], title="ready")
    await add_document(app, kb, [], title="failed, no chunks", status="failed")
    checked: list[bool] = []
    original = repository.search

    async def spy(session: AsyncSession, plan: plans.Plan) -> plans.Result:
        checked.append(plan.check_documents)
        return await original(session, plan)

    monkeypatch.setattr(repository, "search", spy)
    plain = await search(client, kb, query="quartz crystals")
    filtered = await search(client, kb, query="quartz crystals", filter={"doc_title": "ready"})
    await add_document(app, kb, ["quartz crystals oscillate"], title="failed", status="failed")
    after_failure = await search(client, kb, query="quartz crystals")
    # No filter and no failed document holding chunks: candidates skip their document.
    assert checked == [False, True, True]
    assert titles(plain) == titles(filtered) == titles(after_failure) == ["ready"]


async def test_a_deleted_documents_chunks_never_appear(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "deleting")
    gone, _ = await add_document(app, kb, ["basalt columns cool slowly"], title="gone")
    await add_document(app, kb, ["basalt columns cool slowly"], title="kept")
    before = await search(client, kb, query="basalt columns")
    assert sorted(titles(before)) == ["gone", "kept"]
    async with app.state.database.transaction() as session:
        await session.execute(text("DELETE FROM documents WHERE id = :id"), {"id": gone})
    for mode in ("hybrid", "vector", "text"):
        after = await search(client, kb, query="basalt columns", mode=mode)
        assert titles(after) == ["kept"], mode


async def test_other_knowledge_bases_are_not_searched(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    mine = await create_kb(client, "mine")
    theirs = await create_kb(client, "theirs")
    await add_document(app, mine, ["granite is an igneous rock"], title="mine")
    await add_document(app, theirs, ["granite is an igneous rock"], title="theirs")
    for mode in ("hybrid", "vector", "text"):
        assert titles(await search(client, mine, query="granite rock", mode=mode)) == ["mine"]
