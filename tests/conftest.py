"""Test fixtures: one embedded Postgres per run, a fresh migrated database per test."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.engine import make_url

from app.config import Settings
from app.db.embedded import EmbeddedPostgres
from app.db.migrate import upgrade_to_head_async
from app.db.urls import asyncpg_dsn
from app.main import create_app
from tests.fake_openai import FakeChat, serve_in_thread
from tests.fakes import FakeEmbedders
from tests.route_reuse import install as reuse_routes_across_apps

TEMPLATE_DB = "arbor_template"
# A throwaway cluster: no flush to disk (a crashed run is started again, not recovered).
# Each test copies the template and commits dozens of transactions; the server-crash tests
# run servers of their own, with the service's settings.
# WAL bounded too: in memory (`cluster_parent`) every segment kept is RAM.
THROWAWAY_SETTINGS = {"fsync": "off", "full_page_writes": "off", "max_wal_size": "256MB"}
# Each test copies the template, about a thousand files (CREATE DATABASE): 0.4-0.5 s on this
# machine's ext4, 0.03-0.04 s in tmpfs. The cluster lives in /dev/shm where it has room.
RAM_DISK = Path("/dev/shm")
RAM_DISK_MIN_FREE = 4 * 2**30

reuse_routes_across_apps()


def with_database(url: str, name: str) -> str:
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def cluster_parent() -> str | None:
    """Where the test cluster's data directory goes: RAM_DISK when it has room, else the
    default temporary directory (None)."""
    try:
        roomy = shutil.disk_usage(RAM_DISK).free >= RAM_DISK_MIN_FREE
    except OSError:  # no such file system here
        return None
    return str(RAM_DISK) if roomy else None


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """The embedded server, in a temporary data dir removed at the end of the run."""
    root = Path(tempfile.mkdtemp(prefix="arbor-test-", dir=cluster_parent()))
    # Small databases: a bounded buffer pool rather than the service's quarter of the RAM.
    server = EmbeddedPostgres(root / "pg", delete_on_close=True, shared_buffers="256MB")
    url = server.start()
    yield url
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
async def template_url(pg_url: str) -> str:
    """A database migrated once; each test copies it (CREATE DATABASE ... TEMPLATE)."""
    admin = await asyncpg.connect(asyncpg_dsn(pg_url))
    try:
        for name, value in THROWAWAY_SETTINGS.items():
            await admin.execute(f"ALTER SYSTEM SET {name} = '{value}'")
        await admin.execute("SELECT pg_reload_conf()")
        await admin.execute(f"DROP DATABASE IF EXISTS {TEMPLATE_DB}")
        await admin.execute(f"CREATE DATABASE {TEMPLATE_DB}")
    finally:
        await admin.close()
    url = with_database(pg_url, TEMPLATE_DB)
    await upgrade_to_head_async(url)
    return url


@pytest.fixture
async def database_url(pg_url: str, template_url: str) -> AsyncIterator[str]:
    """A fresh database with the schema at head, dropped after the test."""
    name = f"arbor_test_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(asyncpg_dsn(pg_url))
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE_DB}")
    finally:
        await admin.close()
    yield with_database(pg_url, name)
    admin = await asyncpg.connect(asyncpg_dsn(pg_url))
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(env="test", database_url=database_url)


@pytest.fixture
def embedders() -> FakeEmbedders:
    return FakeEmbedders()


@pytest.fixture
async def app(settings: Settings, embedders: FakeEmbedders) -> AsyncIterator[FastAPI]:
    application = create_app(settings, embedder_factory=embedders)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://arbor.test") as http:
        yield http


@pytest.fixture
def fake_llm() -> Iterator[FakeChat]:
    """An OpenAI-compatible chat server on loopback (`fake_llm.base_url`), scripted per test."""
    chat = FakeChat()
    server = serve_in_thread(0, chat=chat)
    chat.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    yield chat
    server.shutdown()
    server.server_close()
