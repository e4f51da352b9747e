"""Start-up: the first admin key, refusing unsafe binds, auth off on loopback, rate limits."""

from __future__ import annotations

import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from pydantic import SecretStr
from sqlalchemy import text

from app.auth.mode import UnsafeConfiguration
from app.config import Settings
from app.main import create_app
from tests.auth.helpers import ADMIN_KEY, bearer, create_key
from tests.fakes import FakeEmbedders


@asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    app = create_app(settings, embedder_factory=FakeEmbedders())
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://arbor.test") as client:
            yield app, client


async def test_first_admin_key_is_generated_once(database_url: str, tmp_path: Path) -> None:
    key_file = tmp_path / "secrets" / "admin-key"
    settings = Settings(env="test", database_url=database_url, auth="on", admin_key_file=key_file)
    async with running(settings) as (app, client):
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        key = key_file.read_text().strip()
        assert key.startswith("arb_")
        assert (await client.get("/v1/knowledge-bases")).status_code == 401
        listed = await client.get("/v1/projects", headers=bearer(key))
        assert listed.status_code == 200
        assert [p["name"] for p in listed.json()["items"]] == ["default"]
        async with app.state.database.transaction() as session:
            stored = await session.scalar(text("SELECT key_sha256 FROM api_keys"))
        assert stored is not None
        assert key not in stored  # only the hash is kept
    async with running(settings) as (app, client):
        assert key_file.read_text().strip() == key  # not replaced on the next start
        async with app.state.database.transaction() as session:
            assert await session.scalar(text("SELECT count(*) FROM api_keys")) == 1
        assert (await client.get("/v1/projects", headers=bearer(key))).status_code == 200


async def test_no_bootstrap_key_with_a_configured_one(database_url: str, tmp_path: Path) -> None:
    key_file = tmp_path / "admin-key"
    settings = Settings(
        env="test",
        database_url=database_url,
        admin_key=SecretStr(ADMIN_KEY),
        admin_key_file=key_file,
    )
    async with running(settings) as (_app, client):
        assert not key_file.exists()
        assert (await client.get("/v1/projects", headers=bearer(ADMIN_KEY))).status_code == 200


async def test_public_bind_without_keys_requires_keys(database_url: str, tmp_path: Path) -> None:
    settings = Settings(
        env="production",
        database_url=database_url,
        host="0.0.0.0",
        admin_key_file=tmp_path / "admin-key",
    )
    async with running(settings) as (_app, client):
        assert (await client.get("/v1/knowledge-bases")).status_code == 401
        assert (tmp_path / "admin-key").exists()


@pytest.mark.parametrize(
    "values",
    [{"auth": "off", "host": "0.0.0.0"}, {"auth": "off", "admin_key": SecretStr(ADMIN_KEY)}],
)
async def test_unsafe_configuration_does_not_start(
    database_url: str, values: dict[str, object]
) -> None:
    settings = Settings.model_validate({"env": "test", "database_url": database_url, **values})
    app = create_app(settings, embedder_factory=FakeEmbedders())
    with pytest.raises(UnsafeConfiguration):
        async with app.router.lifespan_context(app):
            pass


async def test_auth_off_on_loopback_says_so(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(env="test", database_url=database_url)
    with caplog.at_level("WARNING"):
        async with running(settings) as (_app, client):
            assert (await client.get("/v1/knowledge-bases")).status_code == 200
            # Acting as the default project's admin: may pick a project by header.
            missing = await client.get("/v1/knowledge-bases", headers={"X-Arbor-Project": "nope"})
            assert missing.status_code == 404
    assert "AUTHENTICATION IS OFF" in caplog.text


async def test_rate_limit_answers_429_with_retry_after(database_url: str) -> None:
    settings = Settings(
        env="test", database_url=database_url, admin_key=SecretStr(ADMIN_KEY),
        rate_limit_per_minute=3,
    )  # fmt: skip
    async with running(settings) as (_app, client):
        first = await create_key(client, "default", name="first", scopes=["read"])
        second = await create_key(client, "default", name="second", scopes=["read"])
        codes = [
            (await client.get("/v1/knowledge-bases", headers=bearer(first["key"]))).status_code
            for _ in range(4)
        ]
        assert codes == [200, 200, 200, 429]
        limited = await client.get("/v1/knowledge-bases", headers=bearer(first["key"]))
        assert limited.status_code == 429
        assert limited.headers["content-type"] == "application/problem+json"
        assert int(limited.headers["retry-after"]) >= 1
        assert limited.json()["type"].endswith("/rate-limited")
        other = await client.get("/v1/knowledge-bases", headers=bearer(second["key"]))
        assert other.status_code == 200
