"""Without read replicas nothing changes; a "replica" that is no standby is never read from."""

from __future__ import annotations

import asyncio

import httpx
from fastapi import FastAPI

from app.config import Settings
from app.db.consistency import HEADER
from app.main import create_app
from tests.fakes import FakeEmbedders


async def test_without_replicas_a_write_answers_no_token(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    assert app.state.database.replicas is None
    created = await client.post("/v1/knowledge-bases", json={"name": "handbook"})
    assert created.status_code == 201, created.text
    assert HEADER not in created.headers


async def test_a_read_url_that_names_a_primary_is_never_used(
    settings: Settings, database_url: str, embedders: FakeEmbedders
) -> None:
    # The primary itself as a "replica": its positions say nothing about replay, so no token
    # could be honoured there, and reads stay on the primary.
    configured = settings.model_copy(
        update={"database_read_urls": [database_url], "replica_check_s": 0.05}
    )
    app = create_app(configured, embedder_factory=embedders)
    async with app.router.lifespan_context(app):
        replica = app.state.database.replicas.replicas[0]
        for _ in range(200):
            if replica.problem != "not checked yet":
                break
            await asyncio.sleep(0.05)
        assert not replica.healthy
        assert replica.problem == "not a standby (pg_is_in_recovery() is false)"
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://arbor.test") as http:
            created = await http.post("/v1/knowledge-bases", json={"name": "handbook"})
            assert created.status_code == 201, created.text
            assert HEADER in created.headers  # replicas are configured: writes answer tokens
            listed = await http.get("/v1/knowledge-bases")
            assert listed.status_code == 200, listed.text
            assert [kb["name"] for kb in listed.json()["items"]] == ["handbook"]
