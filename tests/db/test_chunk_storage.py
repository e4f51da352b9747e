"""A chunk of ordinary size is stored whole in its heap row (migration 0011): its vector and
tsvector are read without a TOAST lookup or a decompression."""

from __future__ import annotations

import asyncpg
import httpx

from app.db.urls import asyncpg_dsn


async def test_a_full_size_chunk_stays_in_its_row(
    client: httpx.AsyncClient, database_url: str
) -> None:
    created = await client.post(
        "/v1/knowledge-bases",
        json={"name": "inline", "embedding": {"provider": "none", "dimensions": 384}},
    )
    assert created.status_code == 201, created.text
    words = " ".join(f"word{i} clinical trial outcome" for i in range(60))  # about 1,500 chars
    chunks = [
        {"doc_id": "d1", "chunk_index": i, "text": f"{i} {words}", "vector": [0.05] * 384}
        for i in range(3)
    ]
    stored = await client.post("/v1/knowledge-bases/inline/chunks/bulk", json={"chunks": chunks})
    assert stored.status_code == 200, stored.text
    admin = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        rows = await admin.fetch(
            "SELECT pg_column_size(c.*) AS row_size, pg_column_size(embedding) AS vector_size, "
            "pg_column_size(text) AS text_size, octet_length(text) AS text_length FROM chunks c"
        )
        # Every partition's TOAST table (a partitioned table has none of its own).
        toasts = await admin.fetch(
            "SELECT c.reltoastrelid::regclass::text AS toast FROM pg_inherits i "
            "JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'chunks'::regclass"
        )
        assert len(toasts) == 16
        toasted = 0
        for row in toasts:
            toasted += await admin.fetchval(f"SELECT count(*) FROM {row['toast']}")
    finally:
        await admin.close()
    assert len(rows) == 3
    for row in rows:
        assert row["row_size"] > 2_032  # over Postgres's default toasting threshold
        assert row["vector_size"] >= 384 * 4  # inline and whole, not a TOAST pointer
        assert row["text_size"] >= row["text_length"]  # not compressed
    assert toasted == 0
