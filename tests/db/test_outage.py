"""A database that is gone: 503 database-unavailable with Retry-After, not a 500 per route."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.config import Settings
from app.db.engine import Database
from app.db.outage import is_outage, lost_connection
from app.db.replicas import fetch_row
from app.kit.errors import DatabaseUnavailable
from app.kit.problems import PROBLEM_MEDIA_TYPE, install_problem_handlers
from app.main import create_app
from tests.fakes import FakeEmbedders
from tests.helpers import drop_pooled_connections, stop_background_loops

# Nothing listens on port 1: every connect is refused at once.
CLOSED_PORT_URL = "postgresql://arbor:arbor@127.0.0.1:1/arbor"
UNAVAILABLE = "https://arbor.dev/problems/database-unavailable"


@pytest.fixture
def settings(database_url: str) -> Settings:
    # No job loops or webhook dispatcher: one of them polling could meet a dropped connection
    # before the request under test does, and the pool would then hand that request a new one.
    return Settings(env="test", database_url=database_url, workers=0)


@pytest.fixture
async def cut_off() -> AsyncIterator[httpx.AsyncClient]:
    """The API over a database URL that refuses connections (no job loops)."""
    settings = Settings(env="test", database_url=CLOSED_PORT_URL, workers=0)
    application = create_app(settings, embedder_factory=FakeEmbedders())
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://arbor.test") as http:
            yield http


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/v1/knowledge-bases", None),
        ("GET", "/v1/knowledge-bases/demo", None),
        ("POST", "/v1/knowledge-bases", {"name": "demo"}),
        ("POST", "/v1/knowledge-bases/demo/search", {"query": "rivers"}),
    ],
)
async def test_routes_answer_503_when_the_database_refuses_connections(
    cut_off: httpx.AsyncClient, method: str, path: str, body: object
) -> None:
    response = await cut_off.request(method, path, json=body)
    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == PROBLEM_MEDIA_TYPE
    assert response.headers["retry-after"] == str(DatabaseUnavailable.retry_after_s)
    problem = response.json()
    assert problem["type"] == UNAVAILABLE
    assert problem["instance"] == path
    assert "Errno" not in problem["detail"]  # the driver's error is logged, not answered


async def test_readiness_names_the_drivers_error(cut_off: httpx.AsyncClient) -> None:
    response = await cut_off.get("/readyz")
    assert response.status_code == 503
    database = next(c for c in response.json()["checks"] if c["name"] == "database")
    assert database["detail"] == "unreachable: ConnectionRefusedError"


async def test_a_connection_lost_under_a_request_is_503_and_the_next_one_recovers(
    client: httpx.AsyncClient, app: FastAPI, database_url: str
) -> None:
    assert (await client.get("/v1/knowledge-bases")).status_code == 200
    # The housekeeping loops (pruning, index upkeep) run a round at start-up; one of them
    # meeting the dropped connection first would discard the pool before the request does.
    await stop_background_loops()
    # The server drops every pooled connection (as in a restart); they were not idle long
    # enough to be pinged on checkout, so the next request meets a dead one.
    assert await drop_pooled_connections(database_url) >= 1
    lost = await client.get("/v1/knowledge-bases")
    assert lost.status_code == 503, lost.text
    assert lost.json()["type"] == UNAVAILABLE
    # The disconnect discarded the pool's connections: no restart, no second failure.
    assert (await client.get("/v1/knowledge-bases")).status_code == 200


async def test_a_pool_with_no_free_connection_is_503() -> None:
    application = FastAPI()
    install_problem_handlers(application)

    @application.get("/busy")
    async def busy() -> None:
        raise PoolTimeout("QueuePool limit of size 10 overflow 5 reached")

    transport = httpx.ASGITransport(app=application)
    async with httpx.AsyncClient(transport=transport, base_url="http://arbor.test") as http:
        response = await http.get("/busy")
    assert response.status_code == 503
    assert response.json()["type"] == UNAVAILABLE
    assert "busy" in response.json()["detail"]


def test_connection_failures_are_told_apart_from_statement_failures() -> None:
    class Driver(Exception):
        def __init__(self, sqlstate: str) -> None:
            super().__init__(sqlstate)
            self.sqlstate = sqlstate

    assert lost_connection(ConnectionRefusedError())
    assert lost_connection(FileNotFoundError())  # a Unix socket that is gone
    assert lost_connection(Driver("57P01"))  # admin shutdown
    assert lost_connection(Driver("08006"))  # connection failure
    assert not lost_connection(Driver("23505"))  # unique violation: the statement's fault
    assert not lost_connection(ValueError())
    wrapped = RuntimeError("handler failed")
    wrapped.__cause__ = DatabaseUnavailable()
    assert is_outage(wrapped)
    assert not is_outage(RuntimeError("handler failed"))


async def test_a_cancelled_query_stays_cancelled(settings: Settings, database_url: str) -> None:
    # SQLAlchemy treats a cancellation as a disconnect; turned into DatabaseUnavailable, it
    # was caught as an error and a loop being stopped (app shutdown) never ended.
    database = Database(database_url, settings)
    started = asyncio.Event()

    async def slow() -> None:
        async with database.transaction() as session:
            started.set()
            await session.execute(text("SELECT pg_sleep(30)"))

    try:
        task = asyncio.create_task(slow())
        await started.wait()
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        await database.dispose()


async def test_a_bare_driver_statement_on_a_lost_connection_is_an_outage(
    app: FastAPI, database_url: str
) -> None:
    database: Database = app.state.database
    await stop_background_loops()
    assert await fetch_row(database.engine, "SELECT 1") is not None
    assert await drop_pooled_connections(database_url) >= 1
    # The server closed the pooled connection: an outage (503 for a request), not a bug.
    with pytest.raises(DatabaseUnavailable):
        await fetch_row(database.engine, "SELECT 1")
