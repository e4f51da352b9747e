"""Migration 0017: stored access lists in the set form uploads now give them."""

from __future__ import annotations

import importlib.util
import uuid
from pathlib import Path

import asyncpg
import httpx

from app.db.urls import asyncpg_dsn


async def test_migration_0017_puts_stored_access_lists_in_set_form(
    client: httpx.AsyncClient, database_url: str
) -> None:
    spec = importlib.util.spec_from_file_location(
        "access_sets",
        Path(__file__).parents[2] / "migrations/versions/0017_access_lists_as_sets.py",
    )
    assert spec is not None
    assert spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    await client.post("/v1/knowledge-bases", json={"name": "kb"})
    docs = "/v1/knowledge-bases/kb/documents"
    stored = [
        (await client.post(docs, json={"text": f"doc {n}", **body})).json()["id"]
        for n, body in enumerate([{"access": {"principals": ["u:1"]}}, {}, {}])
    ]
    admin = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        unsorted = '{"principals": ["u:2", "u:1", "u:2"]}'
        await admin.execute(
            "UPDATE documents SET access = $1::jsonb WHERE id = $2", unsorted, uuid.UUID(stored[0])
        )
        await admin.execute(
            "UPDATE documents SET access = '{\"principals\": []}' WHERE id = $1",
            uuid.UUID(stored[1]),
        )
        await admin.execute(migration.UPGRADE)
        rows = await admin.fetch("SELECT id, access::text FROM documents")
    finally:
        await admin.close()
    after = {str(row["id"]): row["access"] for row in rows}
    assert after == {
        stored[0]: '{"principals": ["u:1", "u:2"]}',
        stored[1]: '{"principals": []}',
        stored[2]: None,
    }
