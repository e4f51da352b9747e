"""A chunk COPY that fails surfaces its own error, and its connection, whose codecs could not
be reset in the aborted transaction, never serves another transaction."""

from __future__ import annotations

import uuid

import asyncpg
import httpx
import pytest
from sqlalchemy import text

from app.chunks.copy_rows import ChunkRow, insert_rows
from app.config import Settings
from app.db.engine import Database
from app.models import KnowledgeBase
from tests.search.corpus import create_kb


def row(chunk_id: uuid.UUID, document_id: uuid.UUID) -> ChunkRow:
    return ChunkRow(
        id=chunk_id,
        document_id=document_id,
        chunk_index=0,
        text="Roots hold the soil.",
        text_sha256="0" * 64,
        node_path=[],
        depth=0,
        leaf_node_id=None,
        section_titles=[],
        doc_title="",
        page_start=None,
        page_end=None,
        start_offset=None,
        end_offset=None,
        metadata={},
        own_metadata=False,
        embedding=None,
        embedding_computed=False,
    )


async def test_a_failed_copy_raises_its_own_error_and_its_connection_is_discarded(
    client: httpx.AsyncClient, settings: Settings, database_url: str
) -> None:
    created = await create_kb(client, "soil")
    document = await client.post(
        "/v1/knowledge-bases/soil/documents",
        params={"wait": "true"},
        json={"text": "Roots hold the soil against the river."},
    )
    assert document.json()["status"] == "ready", document.text
    chunks = await client.get(f"/v1/knowledge-bases/soil/documents/{document.json()['id']}/chunks")
    existing = uuid.UUID(chunks.json()["items"][0]["chunk_id"])
    document_id = uuid.UUID(document.json()["id"])
    database = Database(database_url, settings.model_copy(update={"db_pool_size": 1}))
    try:
        async with database.transaction() as session:
            kb = await session.get(KnowledgeBase, uuid.UUID(created["id"]))
            assert kb is not None
            project = kb.project_id
        with pytest.raises(asyncpg.UniqueViolationError):
            async with database.transaction(project_id=project) as session:
                await insert_rows(session, kb, [row(existing, document_id)])
        # One pooled connection: the next transaction gets a new one, with the driver's own
        # codecs (the COPY's binary regconfig encoder would refuse a name).
        async with database.transaction(project_id=project) as session:
            named = await session.scalar(
                text("SELECT CAST(CAST(:c AS regconfig) AS text)"), {"c": "english"}
            )
        assert named == "english"
    finally:
        await database.dispose()
