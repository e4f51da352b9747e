"""Which document an upload is: the same bytes, a new version of an external id, or new; the
newest upload wins, also when uploads race (app/documents/versions.py)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi import FastAPI

from app.config import Settings
from app.documents.worker_pool import worker_pool
from app.jobs.worker import WorkerPool
from tests.fakes import FakeEmbedders

DOCS = "/v1/knowledge-bases/kb/documents"


@pytest.fixture
def settings(database_url: str) -> Settings:
    """The service without its workers: uploads stay queued until a test runs a worker."""
    return Settings(env="test", database_url=database_url, workers=0)


@pytest.fixture(autouse=True)
async def knowledge_base(client: httpx.AsyncClient) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).status_code == 201


@pytest.fixture
def pool(app: FastAPI, settings: Settings, embedders: FakeEmbedders) -> WorkerPool:
    return worker_pool(app.state.database, settings, embedders, concurrency=1)


async def post(client: httpx.AsyncClient, text: str, **extra: object) -> httpx.Response:
    return await client.post(DOCS, json={"text": text, **extra})


async def listing(client: httpx.AsyncClient) -> list[tuple[str, str | None]]:
    page = (await client.get(DOCS, params={"limit": 100})).json()
    return sorted((d["id"], d["external_id"]) for d in page["items"])


async def test_identical_uploads_at_once_make_one_document(client: httpx.AsyncClient) -> None:
    responses = await asyncio.gather(*(post(client, "Sent six times at once.") for _ in range(6)))
    assert sorted(r.status_code for r in responses) == [200] * 5 + [202]
    assert len({r.json()["id"] for r in responses}) == 1
    assert len(await listing(client)) == 1


async def test_new_versions_at_once_each_become_one_version(client: httpx.AsyncClient) -> None:
    responses = await asyncio.gather(
        *(post(client, f"Version {n}.", external_id="policy") for n in range(6))
    )
    assert [r.status_code for r in responses] == [202] * 6, [r.text for r in responses]


async def test_the_current_bytes_sent_again_win_over_a_pending_version(
    client: httpx.AsyncClient, pool: WorkerPool
) -> None:
    current = (await post(client, "Version one.", external_id="doc")).json()
    assert await pool.run_once()
    pending = await post(client, "Version two.", external_id="doc")
    assert pending.status_code == 202

    again = await post(client, "Version one.", external_id="doc")

    assert (again.status_code, again.json()["id"]) == (200, current["id"])
    assert (await client.get(f"{DOCS}/{pending.json()['id']}")).status_code == 404
    while await pool.run_once():
        pass
    found = (await client.get(f"{DOCS}/doc")).json()
    assert (found["id"], found["status"]) == (current["id"], "ready")
    assert await listing(client) == [(current["id"], "doc")]


async def test_a_retried_new_version_is_the_pending_one(
    client: httpx.AsyncClient, pool: WorkerPool
) -> None:
    await post(client, "Version one.", external_id="doc")
    assert await pool.run_once()
    first = await post(client, "Version two.", external_id="doc")
    retry = await post(client, "Version two.", external_id="doc")
    assert (first.status_code, retry.status_code) == (202, 200)
    assert retry.json()["id"] == first.json()["id"]


async def test_same_bytes_with_an_external_id_names_the_document(
    client: httpx.AsyncClient,
) -> None:
    unnamed = (await post(client, "Alpha.")).json()
    named = await post(client, "Alpha.", external_id="alpha")
    assert (named.status_code, named.json()["id"]) == (200, unnamed["id"])
    assert named.json()["external_id"] == "alpha"
    assert (await client.get(f"{DOCS}/alpha")).json()["id"] == unnamed["id"]
    # Another external id for the same bytes is another document.
    other = await post(client, "Alpha.", external_id="beta")
    assert other.status_code == 202
    assert other.json()["id"] != unnamed["id"]


async def test_a_batch_never_answers_with_a_document_its_own_new_version_replaces(
    client: httpx.AsyncClient, pool: WorkerPool
) -> None:
    response = await client.post(
        f"{DOCS}/batch",
        json={
            "documents": [
                {"text": "Alpha text.", "external_id": "bx"},
                {"text": "Beta text.", "external_id": "bx"},
                {"text": "Alpha text."},
            ]
        },
    )
    assert response.status_code in (200, 201, 202), response.text
    first, second, third = (item["document"]["id"] for item in response.json()["results"])
    while await pool.run_once():
        pass
    for document_id in (second, third):
        assert (await client.get(f"{DOCS}/{document_id}")).json()["status"] == "ready"
    assert third != first
    assert (await client.get(f"{DOCS}/bx")).json()["id"] == second
