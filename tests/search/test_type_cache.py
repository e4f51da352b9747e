"""A connection learns the types search binds when it connects, and again after a chunk COPY
(whose codec changes make asyncpg forget them): no search pays asyncpg's type introspection."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx
import pytest

from app.config import Settings
from app.db.engine import Database
from app.db.type_cache import learn_types
from app.db.urls import asyncpg_dsn
from tests.conftest import with_database
from tests.search.corpus import create_kb, search


@pytest.fixture
def introspections(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The type oids of each introspection query asyncpg sends from now on."""
    seen: list[list[int]] = []
    introspect = asyncpg.Connection._introspect_types

    async def counted(self: asyncpg.Connection, typeoids: Any, *args: Any) -> Any:
        seen.append(list(typeoids))
        return await introspect(self, typeoids, *args)

    monkeypatch.setattr(asyncpg.Connection, "_introspect_types", counted)
    return seen


async def test_searches_after_uploads_introspect_no_types(
    client: httpx.AsyncClient, introspections: list[list[int]]
) -> None:
    kb = await create_kb(client, "rivers")
    for text in ("the river floods the valley", "a bridge crosses the river", "dry desert"):
        documents = f"/v1/knowledge-bases/{kb['id']}/documents"
        uploaded = await client.post(documents, params={"wait": "true"}, json={"text": text})
        assert uploaded.json()["status"] == "ready", uploaded.text
    # Connections opened, and COPYs run on them, while uploading: each learned the types.
    assert introspections
    introspections.clear()
    for mode in ("hybrid", "vector", "text", "hybrid"):
        found = await search(client, kb, query="river", mode=mode, top_k=5)
        assert found["hits"], mode
    assert introspections == []


async def test_a_database_without_pgvector_still_connects(
    settings: Settings, pg_url: str, introspections: list[list[int]]
) -> None:
    """The migration runner connects before the extension exists: only the arrays are learned."""
    bare = with_database(pg_url, "postgres")
    admin = await asyncpg.connect(asyncpg_dsn(bare))
    try:
        assert await admin.fetchval("SELECT to_regtype('public.vector')") is None
        await learn_types(admin)
        assert len(introspections) == 1
    finally:
        await admin.close()
    database = Database(bare, settings)
    try:
        async with database.transaction() as session:
            assert (await session.connection()).closed is False
    finally:
        await database.dispose()
