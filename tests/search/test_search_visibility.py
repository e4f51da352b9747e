"""Only chunks of ready documents of the searched knowledge bases are ever returned."""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from sqlalchemy import text

from tests.search.corpus import add_document, create_kb, search, titles

STATUSES = ["queued", "parsing", "chunking", "embedding", "failed"]


async def test_chunks_of_documents_not_ready_are_never_returned(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "states")
    await add_document(app, kb, ["quartz crystals oscillate"], title="ready")
    for status in STATUSES:
        await add_document(app, kb, ["quartz crystals oscillate"], title=status, status=status)
    for mode in ("hybrid", "vector", "text"):
        found = await search(client, kb, query="quartz crystals oscillate", mode=mode)
        assert titles(found) == ["ready"], mode
    short = await search(client, kb, query="quarz", mode="text")
    assert titles(short) == ["ready"]


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
