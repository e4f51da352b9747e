"""Read replicas on a real streaming standby: routing, the consistency token, lag, replica loss.

Pausing the standby's replay (`pg_wal_replay_pause()`) makes the primary's newest write
invisible there: a read that sees the old value was served by the replica, one that sees the
new value by the primary.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import asyncpg
import httpx
import pytest
from fastapi import FastAPI
from prometheus_client import REGISTRY
from pydantic import SecretStr
from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.consistency import HEADER, format_lsn, parse_lsn
from app.db.replicas import Replica, ReplicaSet
from app.db.urls import asyncpg_dsn
from app.main import create_app
from app.models import Job
from app.search import text_statistics
from tests.auth.helpers import ADMIN_KEY, bearer, create_key, create_project, upload
from tests.db.standby import Standby
from tests.fakes import FakeEmbedders

WAIT_S = 20.0


@pytest.fixture(scope="module")
def standby(pg_url: str) -> Iterator[Standby]:
    server = Standby(pg_url)
    server.create()
    yield server
    server.remove()


@pytest.fixture
async def replica(standby: Standby, database_url: str) -> AsyncIterator[Standby]:
    """The standby running and replaying, with the test's database; left so afterwards."""
    if not standby.running():
        standby.start()
    await standby.resume_replay()
    name = str(make_url(database_url).database)
    await until(lambda: can_connect(standby.url(name)), what="the database on the standby")
    yield standby
    if not standby.running():
        standby.start()
    await standby.resume_replay()


@pytest.fixture
def settings(database_url: str, replica: Standby) -> Settings:
    name = str(make_url(database_url).database)
    return Settings(
        env="test",
        database_url=database_url,
        database_read_urls=[replica.url(name)],
        replica_check_s=0.05,
        replica_max_lag_s=30.0,
    )


async def can_connect(url: str) -> bool:
    try:
        connection = await asyncpg.connect(asyncpg_dsn(url))
    except (OSError, asyncpg.PostgresError):
        return False
    await connection.close()
    return True


async def until(
    condition: Callable[[], Awaitable[bool] | bool], *, what: str, timeout_s: float = WAIT_S
) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        outcome = condition()
        if outcome if isinstance(outcome, bool) else await outcome:
            return
        assert time.monotonic() < deadline, f"waited {timeout_s:g} s for {what}"
        await asyncio.sleep(0.05)


def the_replica(app: FastAPI) -> Replica:
    replicas = app.state.database.replicas
    assert replicas is not None
    found: Replica = replicas.replicas[0]
    return found


def reads(target: str) -> float:
    return REGISTRY.get_sample_value("arbor_db_read_transactions_total", {"target": target}) or 0.0


async def caught_up(app: FastAPI, token: str) -> None:
    replica = the_replica(app)
    await until(
        lambda: replica.healthy and replica.replayed >= parse_lsn(token),
        what="the replica to replay the write",
    )


async def described(client: httpx.AsyncClient, kb: str, token: str | None = None) -> str:
    response = await client.get(
        f"/v1/knowledge-bases/{kb}", headers={HEADER: token} if token else {}
    )
    assert response.status_code == 200, response.text
    assert HEADER not in response.headers  # a read answers no token
    return str(response.json()["description"])


async def describe(client: httpx.AsyncClient, kb: str, description: str) -> str:
    """Change the knowledge base's description; the write's consistency token."""
    response = await client.patch(f"/v1/knowledge-bases/{kb}", json={"description": description})
    assert response.status_code == 200, response.text
    return response.headers[HEADER]


async def new_kb(client: httpx.AsyncClient, app: FastAPI) -> str:
    created = await client.post("/v1/knowledge-bases", json={"name": "handbook"})
    assert created.status_code == 201, created.text
    await caught_up(app, created.headers[HEADER])
    return str(created.json()["id"])


def test_positions_read_and_written_as_postgres_does() -> None:
    assert parse_lsn("16/B374D848") == (0x16 << 32) | 0xB374D848
    assert format_lsn(parse_lsn("16/B374D848")) == "16/B374D848"
    for bad in ("", "16", "x/1", "16/B374D848/1", "123456789/0"):
        with pytest.raises(ValueError, match="LSN"):
            parse_lsn(bad)


def test_lag_is_measured_against_the_primarys_past_positions() -> None:
    replicas = ReplicaSet([], max_lag_s=5.0, check_s=1.0, make_engine=make_engine_unused)
    replicas._primary.extend([(100.0, 1000), (101.0, 2000), (102.0, 2000)])
    # Caught up with the newest position: nothing missing, however long ago the last commit.
    assert replicas._lag(2000, 3600.0, 102.0, primary_answered=True) == 0.0
    # Has what the primary had at t=100, not what it wrote by t=101: at most 2 s behind.
    assert replicas._lag(1500, 3600.0, 102.0, primary_answered=True) == 2.0
    # Behind every remembered position: the last replayed commit's age bounds it.
    assert replicas._lag(10, 30.0, 102.0, primary_answered=True) == 30.0
    # The primary did not answer this check: a replica with all it last had is current.
    assert replicas._lag(2000, 3600.0, 110.0, primary_answered=False) == 0.0
    assert replicas._lag(1500, 3600.0, 110.0, primary_answered=False) == 10.0


def make_engine_unused(url: str) -> AsyncEngine:
    raise AssertionError(f"no replica to connect to: {url}")


async def test_reads_go_to_the_replica_unless_the_token_is_newer_than_its_replay(
    app: FastAPI, client: httpx.AsyncClient, replica: Standby
) -> None:
    kb = await new_kb(client, app)
    await caught_up(app, await describe(client, kb, "old"))
    assert await described(client, kb) == "old"

    await replica.pause_replay()
    token = await describe(client, kb, "new")
    on_replica, on_primary = reads("replica"), reads("primary")
    # Without the token: the replica, which has not replayed the write.
    assert await described(client, kb) == "old"
    assert reads("replica") == on_replica + 1
    # With it: the primary, as the replica is (and stays) behind it.
    assert await described(client, kb, token) == "new"
    assert reads("primary") == on_primary + 1
    # A token that is no LSN cannot be honoured by a replica: the primary answers.
    assert await described(client, kb, "not-a-position") == "new"

    await replica.resume_replay()
    await caught_up(app, token)
    on_replica = reads("replica")
    assert await described(client, kb, token) == "new"
    assert reads("replica") == on_replica + 1


async def test_a_search_after_a_waited_upload_finds_the_document_with_its_token(
    app: FastAPI, client: httpx.AsyncClient, replica: Standby
) -> None:
    kb = await new_kb(client, app)
    await replica.pause_replay()
    uploaded = await client.post(
        f"/v1/knowledge-bases/{kb}/documents",
        params={"wait": "true"},
        json={"text": "Twenty-five days of paid leave a year.", "external_id": "leave"},
    )
    assert uploaded.status_code in (200, 201), uploaded.text
    assert uploaded.json()["status"] == "ready"
    token = uploaded.headers[HEADER]

    search = f"/v1/knowledge-bases/{kb}/search"
    body = {"query": "paid leave", "mode": "text"}
    dropped = REGISTRY.get_sample_value("arbor_search_analytics_dropped_total") or 0.0
    stale = await client.post(search, json=body)
    assert stale.status_code == 200, stale.text
    assert stale.json()["hits"] == []  # the paused replica has no document yet
    assert HEADER not in stale.headers  # a search is a read: no token to wait for
    fresh = await client.post(search, json=body, headers={HEADER: token})
    assert fresh.status_code == 200, fresh.text
    assert [hit["doc_id"] for hit in fresh.json()["hits"]] == [uploaded.json()["id"]]
    # The searches' analytics rows were written after them, on the primary: none refused.
    assert (REGISTRY.get_sample_value("arbor_search_analytics_dropped_total") or 0.0) == dropped


async def test_a_search_on_the_replica_queues_a_statistics_refresh_on_the_primary(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = await new_kb(client, app)
    monkeypatch.setattr(text_statistics, "is_stale", lambda _stats, _count: True)
    on_replica = reads("replica")
    response = await client.post(
        f"/v1/knowledge-bases/{kb}/search", json={"query": "leave", "mode": "text"}
    )
    assert response.status_code == 200, response.text
    assert reads("replica") == on_replica + 1
    async with app.state.database.transaction() as session:
        kinds = await session.scalars(select(Job.kind).where(Job.knowledge_base_id == kb))
        assert list(kinds) == [text_statistics.JOB_KIND]


async def test_routes_marked_as_reads_run_read_only_on_the_replica(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    kb = await new_kb(client, app)
    uploaded = await client.post(
        f"/v1/knowledge-bases/{kb}/documents",
        params={"wait": "true"},
        json={"text": "# Leave\n\nPaid leave.", "format": "markdown", "external_id": "leave"},
    )
    assert uploaded.status_code in (200, 201), uploaded.text
    await caught_up(app, uploaded.headers[HEADER])
    doc = uploaded.json()["id"]
    chunks = (await client.get(f"/v1/knowledge-bases/{kb}/chunks")).json()["items"]
    root = f"/v1/knowledge-bases/{kb}"
    paths = [
        "/v1/knowledge-bases",
        root,
        f"{root}/documents",
        f"{root}/documents/{doc}",
        f"{root}/documents/{doc}/tree",
        f"{root}/documents/{doc}/chunks",
        f"{root}/documents/{doc}/export",
        f"{root}/chunks",
        f"{root}/chunks/count",
        f"{root}/chunks/{chunks[0]['chunk_id']}",
        f"{root}/text-statistics",
        f"{root}/graph/entities",
        f"{root}/graph/relations",
        f"{root}/graph/status",
        f"{root}/sources",
        f"{root}/analytics",
        f"{root}/evaluations",
        "/v1/audit",
    ]
    before = reads("replica")
    for path in paths:
        response = await client.get(path)
        assert response.status_code == 200, (path, response.text)
    assert reads("replica") >= before + len(paths)


async def test_a_replica_lagging_past_the_bound_is_skipped(
    app: FastAPI, client: httpx.AsyncClient, replica: Standby
) -> None:
    kb = await new_kb(client, app)
    checked = the_replica(app)
    replicas = app.state.database.replicas
    replicas.max_lag_s = 0.5
    await replica.pause_replay()
    await describe(client, kb, "written while the replica lags")
    await until(lambda: not checked.healthy, what="the lag to pass the bound")
    assert checked.lag_s is not None
    assert checked.lag_s > 0.5
    labels = {"replica": checked.label}
    assert REGISTRY.get_sample_value("arbor_db_replica_healthy", labels) == 0
    lag = REGISTRY.get_sample_value("arbor_db_replica_lag_seconds", labels)
    assert lag is not None
    assert lag > 0.5
    on_primary = reads("primary")
    assert await described(client, kb) == "written while the replica lags"
    assert reads("primary") == on_primary + 1

    await replica.resume_replay()
    await until(lambda: checked.healthy, what="the replica to catch up")
    assert REGISTRY.get_sample_value("arbor_db_replica_healthy", labels) == 1
    lag = REGISTRY.get_sample_value("arbor_db_replica_lag_seconds", labels)
    assert lag is not None
    assert lag <= 0.5


async def test_reads_keep_working_when_the_replica_is_lost(
    app: FastAPI, client: httpx.AsyncClient, replica: Standby
) -> None:
    kb = await new_kb(client, app)
    await describe(client, kb, "still here")
    checked = the_replica(app)
    # Stop the health checks: the read itself must find the replica gone.
    for task in asyncio.all_tasks():
        if task.get_name() == "arbor-replica-checks":
            task.cancel()
    await asyncio.sleep(0)
    assert checked.healthy
    replica.stop()
    on_primary = reads("primary")
    assert await described(client, kb) == "still here"
    assert not checked.healthy
    assert reads("primary") == on_primary + 1
    # And the next one does not try it again.
    assert await described(client, kb) == "still here"
    assert reads("primary") == on_primary + 2


async def test_tenancy_and_access_lists_hold_on_the_replica(
    settings: Settings, embedders: FakeEmbedders
) -> None:
    keyed = settings.model_copy(update={"admin_key": SecretStr(ADMIN_KEY)})
    app = create_app(keyed, embedder_factory=embedders)
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://arbor.test") as client,
    ):
        for project in ("acme", "globex"):
            await create_project(client, project)
        write = (await create_key(client, "acme", scopes=["write"]))["key"]
        staff = await create_key(client, "acme", scopes=["read"], principals=["group:staff"])
        outsider = (await create_key(client, "globex", scopes=["read"]))["key"]
        created = await client.post(
            "/v1/knowledge-bases", json={"name": "handbook"}, headers=bearer(write)
        )
        assert created.status_code == 201, created.text
        kb = created.json()["id"]
        public = await upload(client, write, kb, "Paid leave: twenty-five days.")
        await upload(
            client, write, kb, "Paid leave of the board.", access={"principals": ["group:x"]}
        )
        token = (
            await client.patch(
                f"/v1/knowledge-bases/{kb}", json={"description": "d"}, headers=bearer(write)
            )
        ).headers[HEADER]
        await caught_up(app, token)

        on_replica = reads("replica")
        found = await client.post(
            f"/v1/knowledge-bases/{kb}/search",
            json={"query": "paid leave", "mode": "text"},
            headers=bearer(staff["key"]),
        )
        assert found.status_code == 200, found.text
        assert [hit["doc_id"] for hit in found.json()["hits"]] == [public["id"]]
        listed = await client.get(
            f"/v1/knowledge-bases/{kb}/documents", headers=bearer(staff["key"])
        )
        assert [doc["id"] for doc in listed.json()["items"]] == [public["id"]]
        elsewhere = await client.get(f"/v1/knowledge-bases/{kb}", headers=bearer(outsider))
        assert elsewhere.status_code == 404, elsewhere.text
        assert reads("replica") == on_replica + 3
