"""Knowledge bases' vector indexes are built after a creation commits and dropped after a
deletion commits, concurrently: no table lock that every other knowledge base would wait for
(app/chunks/index_upkeep.py)."""

from __future__ import annotations

import asyncio
import uuid

import asyncpg
import httpx
from fastapi import FastAPI
from sqlalchemy import text

from app.chunks import index_upkeep
from app.chunks.vector_index import index_name
from app.db.urls import asyncpg_dsn


async def has_index(app: FastAPI, knowledge_base_id: str) -> bool:
    async with app.state.database.transaction() as session:
        found = await session.scalar(
            text("SELECT to_regclass(:name) IS NOT NULL"),
            {"name": f"public.{index_name(uuid.UUID(knowledge_base_id))}"},
        )
    return bool(found)


async def test_a_deletion_waits_for_no_reader_of_other_knowledge_bases(
    client: httpx.AsyncClient, app: FastAPI, database_url: str
) -> None:
    """The deletion used to drop the index in its transaction: an ACCESS EXCLUSIVE lock on
    the shared chunks table, which waited for every open reader and held every later one
    until the cascade committed."""
    created = (await client.post("/v1/knowledge-bases", json={"name": "gone"})).json()
    reader = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        reading = reader.transaction()
        await reading.start()
        await reader.fetchval("SELECT count(*) FROM chunks")  # a search in another tenant
        deleting = asyncio.create_task(client.delete("/v1/knowledge-bases/gone"))
        for _ in range(300):
            left = await reader.fetchval(
                "SELECT count(*) FROM knowledge_bases WHERE id = $1", uuid.UUID(created["id"])
            )
            if left == 0:
                break
            await asyncio.sleep(0.01)
        assert left == 0, "the deletion did not commit while another transaction read chunks"
        await reading.commit()
    finally:
        await reader.close()
    assert (await deleting).status_code == 204
    assert not await has_index(app, created["id"])


async def test_a_creation_holds_back_no_writer_of_other_knowledge_bases(
    client: httpx.AsyncClient, app: FastAPI, database_url: str
) -> None:
    """CREATE INDEX in the creating transaction queued for a SHARE lock behind every open
    write on chunks, and every later write queued behind it until the creation committed."""
    other = (await client.post("/v1/knowledge-bases", json={"name": "other"})).json()
    writer = await asyncpg.connect(asyncpg_dsn(database_url))
    late = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        writing = writer.transaction()
        await writer.execute("SET lock_timeout = '20s'")
        await writing.start()
        await writer.execute("LOCK TABLE chunks IN ROW EXCLUSIVE MODE")  # an ingestion's write
        creating = asyncio.create_task(client.post("/v1/knowledge-bases", json={"name": "new"}))
        await asyncio.sleep(0.5)  # the creation is waiting for the open write now
        await late.execute("SET lock_timeout = '2s'")
        # Another ingestion's write (an update of nothing) is not held back by the creation.
        await late.execute(
            "UPDATE chunks SET chunk_index = chunk_index WHERE knowledge_base_id = $1",
            uuid.UUID(other["id"]),
        )
        await writing.commit()
    finally:
        await writer.close()
        await late.close()
    created = await creating
    assert created.status_code == 201, created.text
    assert await has_index(app, created.json()["id"])


async def test_the_sweep_builds_missing_indexes_and_drops_orphans(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """What a process that died between a commit and its index build or drop leaves behind."""
    gone = (await client.post("/v1/knowledge-bases", json={"name": "gone"})).json()
    kept = (await client.post("/v1/knowledge-bases", json={"name": "kept"})).json()
    async with app.state.database.transaction() as session:
        await session.execute(
            text("DELETE FROM knowledge_bases WHERE id = :id"), {"id": uuid.UUID(gone["id"])}
        )
        await session.execute(text(f"DROP INDEX {index_name(uuid.UUID(kept['id']))}"))
    assert await has_index(app, gone["id"])
    assert not await has_index(app, kept["id"])
    assert await index_upkeep.sweep(app.state.database) == (1, 1)
    assert not await has_index(app, gone["id"])
    assert await has_index(app, kept["id"])
    assert await index_upkeep.sweep(app.state.database) == (0, 0)
