"""A knowledge base's document and chunk counts come from tallies that triggers keep
(migration 0032): they match a count of the rows after every kind of write, a read of them
scans no document or chunk, writers on different slots do not wait for each other, and keys
cannot write them."""

from __future__ import annotations

import asyncio
import uuid

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from app.db.urls import asyncpg_dsn
from tests.helpers import statements_sent

HANDBOOK = "# Handbook\n\n## Leave\n\nTwenty-five days of paid leave.\n\n## Travel\n\nBook early.\n"
SLOTS = 32


def docs(kb: str) -> str:
    return f"/v1/knowledge-bases/{kb}/documents"


async def settle(client: httpx.AsyncClient, kb: str, expect: int) -> None:
    """Wait (10 s at most) until the knowledge base holds `expect` documents, all ready."""
    for _ in range(200):
        page = (await client.get(docs(kb))).json()
        if page["total"] == expect and all(d["status"] == "ready" for d in page["items"]):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"not ready: {page}")


async def rows_counted(app: FastAPI, kb_id: str) -> tuple[int, int]:
    """The knowledge base's documents and chunks, counted row by row as the owner."""
    async with app.state.database.transaction() as session:
        row = (
            await session.execute(
                text(
                    "SELECT (SELECT count(*) FROM documents WHERE knowledge_base_id = :kb), "
                    "(SELECT count(*) FROM chunks WHERE knowledge_base_id = :kb)"
                ),
                {"kb": uuid.UUID(kb_id)},
            )
        ).one()
        return int(row[0]), int(row[1])


async def assert_counts_true(client: httpx.AsyncClient, app: FastAPI, kb: str) -> dict[str, int]:
    """GET and the list agree with a count of the rows; returns the counts."""
    read = (await client.get(f"/v1/knowledge-bases/{kb}")).json()
    listed = {k["name"]: k for k in (await client.get("/v1/knowledge-bases")).json()["items"]}
    counted = await rows_counted(app, read["id"])
    assert (read["document_count"], read["chunk_count"]) == counted
    assert (listed[kb]["document_count"], listed[kb]["chunk_count"]) == counted
    return {"documents": counted[0], "chunks": counted[1]}


async def test_counts_follow_uploads_chunk_writes_copies_deletes_and_cascades(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "old"})).status_code == 201
    assert await assert_counts_true(client, app, "old") == {"documents": 0, "chunks": 0}

    uploaded = await client.post(
        docs("old"), params={"wait": "true"}, json={"text": HANDBOOK, "external_id": "handbook"}
    )
    assert uploaded.json()["status"] == "ready", uploaded.text
    batch = await client.post(
        f"{docs('old')}/batch",
        json={"documents": [{"text": f"Note {i} about the office."} for i in range(3)]},
    )
    assert batch.is_success, batch.text
    await settle(client, "old", 4)
    after_uploads = await assert_counts_true(client, app, "old")
    assert after_uploads["documents"] == 4
    assert after_uploads["chunks"] >= 4

    loose = [{"text": f"loose note {i}", "doc_id": "notes"} for i in range(3)]
    bulk = await client.post("/v1/knowledge-bases/old/chunks/bulk", json={"chunks": loose})
    assert bulk.is_success, bulk.text
    after_bulk = await assert_counts_true(client, app, "old")
    assert after_bulk == {"documents": 5, "chunks": after_uploads["chunks"] + 3}

    reindexed = await client.post(f"{docs('old')}/handbook/reindex")
    assert reindexed.is_success, reindexed.text
    await settle(client, "old", 5)
    assert await assert_counts_true(client, app, "old") == after_bulk

    copied = await client.post("/v1/knowledge-bases/old/copy", json={"name": "new"})
    assert copied.status_code == 202, copied.text
    await settle(client, "new", 5)
    assert await assert_counts_true(client, app, "new") == after_bulk

    assert (await client.delete(f"{docs('old')}/handbook")).status_code == 204
    after_delete = await assert_counts_true(client, app, "old")
    assert after_delete["documents"] == 4
    assert after_delete["chunks"] < after_bulk["chunks"]

    # A deleted knowledge base's rows go by cascade; its tallies with it, nothing left behind.
    old_id = (await client.get("/v1/knowledge-bases/old")).json()["id"]
    assert (await client.delete("/v1/knowledge-bases/old")).status_code == 204
    async with app.state.database.transaction() as session:
        left = await session.scalar(
            text("SELECT count(*) FROM knowledge_base_tallies WHERE knowledge_base_id = :kb"),
            {"kb": uuid.UUID(old_id)},
        )
    assert left == 0
    assert await assert_counts_true(client, app, "new") == after_bulk


async def test_concurrent_uploads_are_all_counted(client: httpx.AsyncClient, app: FastAPI) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "busy"})).status_code == 201
    responses = await asyncio.gather(
        *(
            client.post(docs("busy"), params={"wait": "true"}, json={"text": f"Memo {i}."})
            for i in range(12)
        )
    )
    assert all(r.json()["status"] == "ready" for r in responses)
    assert (await assert_counts_true(client, app, "busy"))["documents"] == 12


async def test_reading_counts_scans_no_document_or_chunk(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "read"})).status_code == 201
    uploaded = await client.post(docs("read"), params={"wait": "true"}, json={"text": HANDBOOK})
    assert uploaded.json()["status"] == "ready"
    engine = app.state.database.engine
    with statements_sent(engine, lambda s: "knowledge_base" in s) as sent:
        read = await client.get("/v1/knowledge-bases/read")
        listed = await client.get("/v1/knowledge-bases")
    assert read.json()["chunk_count"] == uploaded.json()["chunk_count"] > 0
    assert listed.json()["items"][0]["document_count"] == 1
    counting = [s for s, _ in sent if "knowledge_base_tallies" in s]
    assert len(counting) == 2, sent
    assert not any(" chunks" in s or " documents" in s for s in counting)


async def distinct_slot_connections(database_url: str) -> list[asyncpg.Connection]:
    """Two owner connections whose backends add to different tally slots."""
    by_slot: dict[int, asyncpg.Connection] = {}
    spare: list[asyncpg.Connection] = []
    while len(by_slot) < 2:
        connection = await asyncpg.connect(asyncpg_dsn(database_url))
        slot = await connection.fetchval("SELECT pg_backend_pid() % $1", SLOTS)
        if slot in by_slot:
            spare.append(connection)
        else:
            by_slot[slot] = connection
    for connection in spare:
        await connection.close()
    return list(by_slot.values())


async def test_writers_on_different_slots_do_not_wait_for_each_other(
    client: httpx.AsyncClient, app: FastAPI, database_url: str
) -> None:
    created = await client.post("/v1/knowledge-bases", json={"name": "slots"})
    kb_id = uuid.UUID(created.json()["id"])
    first, second = await distinct_slot_connections(database_url)
    project_id = await first.fetchval("SELECT project_id FROM knowledge_bases WHERE id = $1", kb_id)
    insert = (
        "INSERT INTO documents (id, project_id, knowledge_base_id, title, status) "
        "VALUES (gen_random_uuid(), $1, $2, 'memo', 'ready')"
    )
    try:
        async with first.transaction():
            await first.execute(insert, project_id, kb_id)
            # The first transaction is still open: a single counter row would block here.
            async with second.transaction():
                await second.execute("SET LOCAL lock_timeout = '2s'")
                await second.execute(insert, project_id, kb_id)
    finally:
        await first.close()
        await second.close()
    assert (await assert_counts_true(client, app, "slots"))["documents"] == 2


async def test_keys_cannot_write_tallies(client: httpx.AsyncClient, database_url: str) -> None:
    created = await client.post("/v1/knowledge-bases", json={"name": "tamper"})
    connection = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        project_id = await connection.fetchval(
            "SELECT project_id::text FROM knowledge_bases WHERE id = $1",
            uuid.UUID(created.json()["id"]),
        )
        async with connection.transaction():
            await connection.execute("SET LOCAL ROLE arbor_app")
            await connection.execute("SELECT set_config('arbor.project_id', $1, true)", project_id)
            with pytest.raises(asyncpg.InsufficientPrivilegeError):
                await connection.execute(
                    "UPDATE knowledge_base_tallies SET chunks = chunks + 1000000"
                )
    finally:
        await connection.close()


async def test_a_page_of_all_chunks_takes_its_total_from_the_tallies(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "paged"})).status_code == 201
    loose = [{"text": f"note {i}", "doc_id": f"doc{i % 2}"} for i in range(5)]
    bulk = await client.post("/v1/knowledge-bases/paged/chunks/bulk", json={"chunks": loose})
    assert bulk.is_success, bulk.text
    url = "/v1/knowledge-bases/paged/chunks"
    engine = app.state.database.engine
    with statements_sent(engine, lambda s: "count(" in s) as counted:
        page = (await client.get(url, params={"limit": 2})).json()
    assert (page["total"], len(page["items"])) == (5, 2)
    assert not any("FROM chunks" in s for s, _ in counted), counted
    # Narrower listings count what matches.
    by_document = (await client.get(url, params={"doc_id": "doc0"})).json()
    assert by_document["total"] == 3
    embedded = (await client.get(url, params={"embedded": "true"})).json()
    assert embedded["total"] == 5
    unembedded = (await client.get(url, params={"embedded": "false"})).json()
    assert unembedded["total"] == 0


async def test_a_page_of_all_documents_takes_its_total_from_the_tallies(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "listed"})).status_code == 201
    for i in range(3):
        uploaded = await client.post(
            docs("listed"),
            params={"wait": "true"},
            json={"text": f"Memo {i}.", "metadata": {"team": "a" if i else "b"}},
        )
        assert uploaded.json()["status"] == "ready", uploaded.text
    engine = app.state.database.engine
    with statements_sent(engine, lambda s: "count(" in s) as counted:
        page = (await client.get(docs("listed"), params={"limit": 1})).json()
    assert (page["total"], len(page["items"])) == (3, 1)
    assert not any("FROM documents" in s for s, _ in counted), counted
    filtered = (await client.get(docs("listed"), params={"metadata": '{"team": "a"}'})).json()
    assert filtered["total"] == 2
