"""Keys carry the project (migration 0034): what Citus needs of a table distributed by
`project_id`, and the integrity it gives on one Postgres too."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import asyncpg
import httpx
import pytest
from alembic import command

from app.db.migrate import alembic_config
from app.db.urls import asyncpg_dsn
from tests.search.corpus import create_kb

# Tables with a project that are not distributed by it (docs/scaling.md, "Table by table"):
# keys are looked up before the project is known, and the job queue is claimed across tenants.
NOT_DISTRIBUTED = {"api_keys", "jobs"}

TENANT_TABLES = """
SELECT c.oid FROM pg_class c
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'project_id' AND NOT a.attisdropped
WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
  AND NOT c.relispartition AND c.relname <> ALL($1::text[])
"""


@pytest.fixture
async def admin(database_url: str) -> AsyncIterator[asyncpg.Connection]:
    """The schema owner's connection, which row-level security does not restrict."""
    connection = await asyncpg.connect(asyncpg_dsn(database_url))
    yield connection
    await connection.close()


async def test_every_unique_key_of_a_tenant_table_includes_the_project(
    admin: asyncpg.Connection,
) -> None:
    keys = await admin.fetch(
        "SELECT i.indexrelid::regclass::text AS name, "
        "EXISTS (SELECT 1 FROM unnest(i.indkey) k JOIN pg_attribute a "
        "  ON a.attrelid = i.indrelid AND a.attnum = k WHERE a.attname = 'project_id') AS keyed "
        f"FROM pg_index i WHERE i.indisunique AND i.indrelid IN ({TENANT_TABLES})",
        list(NOT_DISTRIBUTED),
    )
    names = {row["name"] for row in keys}
    assert {"pk_knowledge_bases", "pk_chunks", "uq_graph_relations_key"} <= names
    assert [row["name"] for row in keys if not row["keyed"]] == []


async def test_every_foreign_key_between_tenant_tables_includes_the_project(
    admin: asyncpg.Connection,
) -> None:
    foreign = await admin.fetch(
        "SELECT conname, conrelid::regclass::text AS child, confrelid::regclass::text AS parent, "
        "(SELECT array_agg(attname) FROM pg_attribute WHERE attrelid = conrelid "
        " AND attnum = ANY(conkey)) AS columns, "
        "(SELECT array_agg(attname) FROM pg_attribute WHERE attrelid = confrelid "
        " AND attnum = ANY(confkey)) AS referenced "
        "FROM pg_constraint WHERE contype = 'f' AND conparentid = 0 "
        f"AND conrelid IN ({TENANT_TABLES}) AND confrelid IN ({TENANT_TABLES})",
        list(NOT_DISTRIBUTED),
    )
    assert len(foreign) >= 20
    unkeyed = [
        row["conname"]
        for row in foreign
        if "project_id" not in row["columns"] or "project_id" not in row["referenced"]
    ]
    assert unkeyed == []


async def test_no_foreign_key_check_can_take_an_index_on_the_project_alone(
    admin: asyncpg.Connection,
) -> None:
    """A check by (x_id, project_id) on an unanalysed table may use an index on `project_id`
    alone and read the whole project per row (migration 0034): no such index on either side
    of a foreign key that includes the project."""
    found = await admin.fetch(
        "SELECT DISTINCT i.indexrelid::regclass::text AS name FROM pg_constraint f "
        "JOIN pg_index i ON i.indrelid IN (f.conrelid, f.confrelid) "
        "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] "
        "WHERE f.contype = 'f' AND f.conparentid = 0 AND i.indnatts = 1 "
        "AND a.attname = 'project_id' AND EXISTS (SELECT 1 FROM pg_attribute k "
        "  WHERE k.attrelid = f.conrelid AND k.attnum = ANY(f.conkey) "
        "  AND k.attname = 'project_id' AND array_length(f.conkey, 1) > 1)"
    )
    assert [row["name"] for row in found] == []


async def knowledge_base(client: httpx.AsyncClient, name: str) -> uuid.UUID:
    return uuid.UUID((await create_kb(client, name))["id"])


async def test_a_row_cannot_belong_to_another_project_than_its_knowledge_base(
    client: httpx.AsyncClient, admin: asyncpg.Connection
) -> None:
    kb = await knowledge_base(client, "roots")
    other = await admin.fetchval(
        "INSERT INTO projects (id, name) VALUES ($1, 'other') RETURNING id", uuid.uuid4()
    )
    with pytest.raises(asyncpg.ForeignKeyViolationError):
        await admin.execute(
            "INSERT INTO documents (id, project_id, knowledge_base_id, status) "
            "VALUES (gen_random_uuid(), $1, $2, 'ready')",
            other,
            kb,
        )
    project = await admin.fetchval("SELECT project_id FROM knowledge_bases WHERE id = $1", kb)
    document = await admin.fetchval(
        "INSERT INTO documents (id, project_id, knowledge_base_id, status) "
        "VALUES (gen_random_uuid(), $1, $2, 'ready') RETURNING id",
        project,
        kb,
    )
    assert document is not None


async def test_a_document_that_loses_its_source_keeps_its_project(
    client: httpx.AsyncClient, admin: asyncpg.Connection
) -> None:
    kb = await knowledge_base(client, "synced")
    project = await admin.fetchval("SELECT project_id FROM knowledge_bases WHERE id = $1", kb)
    source = await admin.fetchval(
        "INSERT INTO sources (id, project_id, knowledge_base_id, name, kind, config, metadata) "
        "VALUES (gen_random_uuid(), $1, $2, 'folder', 'folder', '{}', '{}') RETURNING id",
        project,
        kb,
    )
    document = await admin.fetchval(
        "INSERT INTO documents (id, project_id, knowledge_base_id, status, source_id) "
        "VALUES (gen_random_uuid(), $1, $2, 'ready', $3) RETURNING id",
        project,
        kb,
        source,
    )
    await admin.execute("DELETE FROM sources WHERE id = $1", source)
    row = await admin.fetchrow(
        "SELECT project_id, source_id FROM documents WHERE id = $1", document
    )
    assert row is not None
    assert (row["project_id"], row["source_id"]) == (project, None)


async def test_the_keys_go_back_and_forth_with_the_data(
    client: httpx.AsyncClient, admin: asyncpg.Connection, database_url: str
) -> None:
    kb = await knowledge_base(client, "round-trip")
    uploaded = await client.post(
        "/v1/knowledge-bases/round-trip/documents",
        params={"wait": "true"},
        json={"text": "Roots hold the soil against the river."},
    )
    assert uploaded.json()["status"] == "ready", uploaded.text
    config = alembic_config(database_url)
    await asyncio.to_thread(command.downgrade, config, "0033")
    assert (
        await admin.fetchval(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'pk_documents'"
        )
        == "PRIMARY KEY (id)"
    )
    await asyncio.to_thread(command.upgrade, config, "head")
    assert (
        await admin.fetchval(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'pk_documents'"
        )
        == "PRIMARY KEY (id, project_id)"
    )
    # The tallies' upsert names the key again: another upload is counted.
    again = await client.post(
        "/v1/knowledge-bases/round-trip/documents",
        params={"wait": "true"},
        json={"text": "Leaves fall in the autumn."},
    )
    assert again.json()["status"] == "ready", again.text
    read = await client.get(f"/v1/knowledge-bases/{kb}")
    assert read.json()["document_count"] == 2
