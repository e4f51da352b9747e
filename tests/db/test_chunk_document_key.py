"""The chunk -> document key (migration 0008): the per-row check reads one document, and a chunk
still cannot name another knowledge base's document."""

from __future__ import annotations

import uuid

import asyncpg
import httpx
import pytest

from app.db.urls import asyncpg_dsn

# Inside the range where, without statistics on `documents`, a lookup by (id, knowledge base,
# project) cost the planner the same through `knowledge_base_id` alone (migration 0008).
DOCUMENTS = 300


async def knowledge_base(
    client: httpx.AsyncClient, admin: asyncpg.Connection, name: str
) -> tuple[uuid.UUID, uuid.UUID]:
    """A new knowledge base's id and its project's."""
    response = await client.post("/v1/knowledge-bases", json={"name": name})
    assert response.status_code == 201, response.text
    kb_id = uuid.UUID(response.json()["id"])
    project_id = await admin.fetchval("SELECT project_id FROM knowledge_bases WHERE id = $1", kb_id)
    return kb_id, project_id


async def tuples_read_beside_primary_key(admin: asyncpg.Connection) -> int:
    await admin.execute("SELECT pg_stat_clear_snapshot()")
    found = await admin.fetchval(
        "SELECT coalesce(sum(idx_tup_read), 0) FROM pg_stat_user_indexes "
        "WHERE relname = 'documents' AND indexrelname <> 'pk_documents'"
    )
    return int(found)


async def test_inserting_chunks_reads_one_document_per_chunk(
    client: httpx.AsyncClient, database_url: str
) -> None:
    admin = await asyncpg.connect(asyncpg_dsn(database_url))
    writer = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        kb_id, project_id = await knowledge_base(client, admin, "kb")
        documents = await admin.fetch(
            "INSERT INTO documents (id, project_id, knowledge_base_id, status) "
            "SELECT gen_random_uuid(), $1, $2, 'ready' FROM generate_series(1, $3) RETURNING id",
            project_id,
            kb_id,
            DOCUMENTS,
        )
        await admin.execute("SELECT pg_stat_force_next_flush()")
        before = await tuples_read_beside_primary_key(admin)
        # One connection, several statements: its cached foreign-key plan serves them all.
        for start in range(0, DOCUMENTS, 100):
            await writer.execute(
                "INSERT INTO chunks (id, project_id, knowledge_base_id, document_id, text, "
                "text_sha256) SELECT gen_random_uuid(), $1, $2, d, 'text', 'x' "
                "FROM unnest($3::uuid[]) AS d",
                project_id,
                kb_id,
                [row["id"] for row in documents[start : start + 100]],
            )
        await writer.execute("SELECT pg_stat_force_next_flush()")
        after = await tuples_read_beside_primary_key(admin)
    finally:
        await writer.close()
        await admin.close()
    # A lookup through `knowledge_base_id` would read up to DOCUMENTS entries per chunk.
    assert after - before < DOCUMENTS


@pytest.mark.parametrize("statement", ["insert", "update"])
async def test_a_chunk_cannot_name_a_document_of_another_knowledge_base(
    client: httpx.AsyncClient, database_url: str, statement: str
) -> None:
    # As the owner, which row-level security does not stop (the COPY path writes as it).
    admin = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        ours, _ = await knowledge_base(client, admin, "ours")
        theirs, project_id = await knowledge_base(client, admin, "theirs")
        written = await client.post(
            "/v1/knowledge-bases/ours/chunks/bulk",
            json={"chunks": [{"doc_id": "doc-1", "text": "Roots hold the soil."}]},
        )
        assert written.status_code == 200, written.text
        chunk_id = uuid.UUID(written.json()["chunk_ids"][0])
        document_id = await admin.fetchval("SELECT document_id FROM chunks WHERE id = $1", chunk_id)
        if statement == "insert":
            sql = (
                "INSERT INTO chunks (id, project_id, knowledge_base_id, document_id, text, "
                "text_sha256) VALUES (gen_random_uuid(), $1, $2, $3, 'text', 'x')"
            )
            values: tuple[object, ...] = (project_id, theirs, document_id)
        else:
            sql, values = (
                "UPDATE chunks SET knowledge_base_id = $1 WHERE id = $2",
                (theirs, chunk_id),
            )
        with pytest.raises(asyncpg.ForeignKeyViolationError, match="another knowledge base"):
            await admin.execute(sql, *values)
        kept = await admin.fetchval("SELECT knowledge_base_id FROM chunks WHERE id = $1", chunk_id)
    finally:
        await admin.close()
    assert kept == ours
