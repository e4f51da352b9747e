"""Deleting a document while its job runs cancels the job and leaves nothing behind."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from typing import Any

import asyncpg
import httpx
import pytest

from app.config import Settings
from app.db.urls import asyncpg_dsn
from app.main import create_app
from tests.fake_openai import serve_in_thread
from tests.fakes import FakeEmbedders
from tests.test_real_server import free_port


async def test_delete_while_embedding(
    settings: Settings, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLOW_EMBEDDER_KEY", "k")
    port = free_port()
    server = serve_in_thread(port, dimensions=8, delay_s=0.2)
    app = create_app(settings.model_copy(update={"embed_batch_size": 2}))
    try:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                await client.post(
                    "/v1/knowledge-bases",
                    json={
                        "name": "slow",
                        "embedding": {
                            "provider": "openai",
                            "model": "m",
                            "dimensions": 8,
                            "base_url": f"http://127.0.0.1:{port}/v1",
                            "api_key_env": "SLOW_EMBEDDER_KEY",
                        },
                        "chunking": {"max_tokens": 48, "overlap_tokens": 0},
                    },
                )
                text = "\n\n".join(f"Paragraph {i} says something new." * 3 for i in range(30))
                docs = "/v1/knowledge-bases/slow/documents"
                created = (await client.post(docs, json={"text": text})).json()
                url = f"{docs}/{created['id']}"
                for _ in range(200):
                    if (await client.get(url)).json()["status"] == "embedding":
                        break
                    await asyncio.sleep(0.02)
                assert (await client.get(url)).json()["status"] == "embedding"
                assert (await client.delete(url)).status_code == 204
                await asyncio.sleep(1.0)  # let the job reach its store step
                assert (await client.get(url)).status_code == 404
                count = (await client.get("/v1/knowledge-bases/slow/chunks/count")).json()
                assert count["count"] == 0
    finally:
        server.shutdown()
        server.server_close()
    connection = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        leftovers = await connection.fetchval(
            "SELECT (SELECT count(*) FROM chunks) + (SELECT count(*) FROM documents) "
            "+ (SELECT count(*) FROM document_sources) "
            "+ (SELECT count(*) FROM jobs WHERE status IN ('queued', 'running'))"
        )
    finally:
        await connection.close()
    assert leftovers == 0


async def test_delete_takes_the_locks_in_ingestion_order(
    database_url: str, embedders: FakeEmbedders
) -> None:
    """Ingestion's store step locks the document, then finishes its job. A DELETE arriving
    meanwhile used to cancel the job first and then wait for the document: each held what the
    other wanted, and Postgres rolled one back (QA saw a 500, then a 409)."""
    deleted, after = await delete_while_a_store_step_holds_the_document(
        database_url,
        embedders,
        path=lambda document_id: f"/v1/knowledge-bases/kb/documents/{document_id}",
        store_then="UPDATE jobs SET status = 'succeeded' WHERE document_id = $1",
    )
    assert (deleted, after) == (204, 404)


async def test_deleting_the_knowledge_base_takes_the_locks_in_ingestion_order(
    database_url: str, embedders: FakeEmbedders
) -> None:
    """A store step holding a document's lock goes on to rewrite its chunks. Deleting the
    knowledge base used to lock the chunks table first (dropping its vector index) and then
    wait for the document: Postgres rolled one of them back."""
    deleted, after = await delete_while_a_store_step_holds_the_document(
        database_url,
        embedders,
        path=lambda _: "/v1/knowledge-bases/kb",
        store_then="DELETE FROM chunks WHERE document_id = $1",
    )
    assert (deleted, after) == (204, 404)


async def delete_while_a_store_step_holds_the_document(
    database_url: str,
    embedders: FakeEmbedders,
    *,
    path: Callable[[str], str],
    store_then: str,
) -> tuple[int, int]:
    """Lock a new document's row as a store step does, send a DELETE to `path`, wait until it
    waits for a lock, then go on as the store step would (`store_then`, the document id as $1)
    and commit. The DELETE's status, and a GET of the same path's after it."""
    settings = Settings(env="test", database_url=database_url, workers=0)
    app = create_app(settings, embedder_factory=embedders)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).is_success
            docs = "/v1/knowledge-bases/kb/documents"
            created = (await client.post(docs, json={"text": "Stored while deleted."})).json()
            document_id = uuid.UUID(created["id"])
            storing = await asyncpg.connect(asyncpg_dsn(database_url))
            try:
                transaction = storing.transaction()
                await transaction.start()
                await storing.execute(
                    "SELECT 1 FROM documents WHERE id = $1 FOR UPDATE", document_id
                )
                deleting = asyncio.create_task(client.delete(path(created["id"])))
                await until_a_backend_waits_for_a_lock(storing)
                await storing.execute(store_then, document_id)
                await transaction.commit()
            finally:
                await storing.close()
            deleted = (await deleting).status_code
            return deleted, (await client.get(path(created["id"]))).status_code


async def until_a_backend_waits_for_a_lock(connection: asyncpg.Connection) -> None:
    for _ in range(500):
        waiting = await connection.fetchval(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        if waiting:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the DELETE never waited for the document's lock")


async def test_an_upload_whose_knowledge_base_is_deleted_meanwhile_is_a_404(
    client: httpx.AsyncClient, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The upload found the knowledge base, then a DELETE committed before its insert: the
    foreign key refused the document (it was a 500 on uploads, batches and imports)."""
    from app.documents import service

    assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).is_success
    create_many = service.create_many

    async def deleted_first(*args: object, **kwargs: object) -> object:
        admin = await asyncpg.connect(asyncpg_dsn(database_url))
        try:
            await admin.execute("DELETE FROM knowledge_bases WHERE name = 'kb'")
        finally:
            await admin.close()
        return await create_many(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service, "create_many", deleted_first)
    response = await client.post("/v1/knowledge-bases/kb/documents", json={"text": "Late."})
    assert response.status_code == 404, response.text
    assert response.json()["type"].endswith("/not-found")
    assert "deleted by another request" in response.json()["detail"]


async def test_an_upload_waiting_for_a_deleted_document_is_a_404(database_url: str) -> None:
    """Not a 202 with a stale `queued` body for `?wait=true`."""
    app = create_app(Settings(env="test", database_url=database_url, workers=0))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).is_success
            docs = "/v1/knowledge-bases/kb/documents"
            waiting = asyncio.create_task(
                client.post(docs, params={"wait": "true", "timeout": 10}, json={"text": "Soon."})
            )
            listed: list[dict[str, str]] = []
            for _ in range(200):
                listed = (await client.get(docs)).json()["items"]
                if listed:
                    break
                await asyncio.sleep(0.02)
            assert (await client.delete(f"{docs}/{listed[0]['id']}")).status_code == 204
            answer = await waiting
            assert answer.status_code == 404, answer.text
            assert "was deleted while this request waited" in answer.json()["detail"]


async def test_a_delete_of_both_versions_while_the_new_one_is_stored_waits_and_succeeds(
    database_url: str, embedders: FakeEmbedders, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new version's store step takes the external id over from the version holding it,
    so it locks both documents. It locked its own first and the old one after: a delete of
    both (by filter, or a source's record) that had locked the older one first waited for the
    new one, each held what the other wanted, and Postgres rolled one back (a 409). The
    deadlock needs the old version's id to sort first, so the race is run until both orders
    were tried."""
    from app.documents import store_step

    take_over = store_step.take_over_external_ids
    paused, go_on = asyncio.Event(), asyncio.Event()

    async def pausing(session: Any, kb: Any, works: list[Any], *args: Any) -> Any:
        if any(work.job.payload.get("replaces") for work in works):  # the new version's
            paused.set()
            await go_on.wait()
        return await take_over(session, kb, works, *args)

    monkeypatch.setattr(store_step, "take_over_external_ids", pausing)
    settings = Settings(env="test", database_url=database_url)
    app = create_app(settings, embedder_factory=embedders)
    orders: set[bool] = set()
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).is_success
            docs = "/v1/knowledge-bases/kb/documents"
            watcher = await asyncpg.connect(asyncpg_dsn(database_url))
            try:
                for attempt in range(40):
                    external_id = f"report-{attempt}"
                    versions = [
                        await client.post(
                            docs,
                            params={"wait": "true"} if number == 1 else {},
                            json={
                                "text": f"Version {number} of the report.",
                                "external_id": external_id,
                                "metadata": {"n": attempt},
                            },
                        )
                        for number in (1, 2)
                    ]
                    old, new = (uuid.UUID(version.json()["id"]) for version in versions)
                    await asyncio.wait_for(paused.wait(), 10)
                    deleting = asyncio.create_task(
                        client.post(f"{docs}/delete", json={"filter": {"metadata.n": attempt}})
                    )
                    await until_a_backend_waits_for_a_lock(watcher)
                    go_on.set()
                    deleted = await asyncio.wait_for(deleting, 30)
                    assert deleted.status_code == 200, deleted.text
                    assert deleted.json()["deleted"] >= 1
                    paused.clear()
                    go_on.clear()
                    orders.add(old < new)
                    if orders == {True, False}:
                        break
                assert orders == {True, False}
                # The store step committed first (the delete waited for it), then the delete
                # removed what it left: nothing of either version remains, no job is left.
                for _ in range(200):
                    left = await watcher.fetchval(
                        "SELECT (SELECT count(*) FROM documents)"
                        " + (SELECT count(*) FROM jobs WHERE status IN ('queued', 'running'))"
                    )
                    if left == 0:
                        break
                    await asyncio.sleep(0.02)
                assert left == 0
                failed = await watcher.fetchval("SELECT count(*) FROM jobs WHERE status = 'failed'")
                assert failed == 0
            finally:
                await watcher.close()
