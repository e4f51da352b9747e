"""Queued documents of one knowledge base are ingested together; each one settles on its own."""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fpdf import FPDF
from sqlalchemy import select, text

from app.config import Settings
from app.documents import pipeline, store_step
from app.documents.ingest_work import Work
from app.documents.versions import Catalogue
from app.documents.worker_pool import worker_pool
from app.jobs.worker import WorkerPool
from app.models import Document, Job
from tests.fakes import FakeEmbedders

DOCS = "/v1/knowledge-bases/{kb}/documents"


@pytest.fixture
def settings(database_url: str) -> Settings:
    """The service without its workers: uploads stay queued until a test runs a worker."""
    return Settings(env="test", database_url=database_url, workers=0)


@pytest.fixture(autouse=True)
async def knowledge_bases(client: httpx.AsyncClient) -> None:
    for name in ("kb", "other"):
        response = await client.post("/v1/knowledge-bases", json={"name": name})
        assert response.status_code == 201


@pytest.fixture
def pool(app: FastAPI, settings: Settings, embedders: FakeEmbedders) -> WorkerPool:
    return worker_pool(
        app.state.database,
        settings.model_copy(update={"ingest_batch_size": 8}),
        embedders,
        concurrency=1,
    )


async def upload(client: httpx.AsyncClient, title: str, kb: str = "kb") -> str:
    text = f"{title} opens here.\n\n" + " ".join(f"{title} sentence {n}." for n in range(60))
    response = await client.post(DOCS.format(kb=kb), json={"text": text, "title": title})
    assert response.status_code == 202, response.text
    document_id: str = response.json()["id"]
    return document_id


async def documents(client: httpx.AsyncClient, kb: str = "kb") -> dict[str, dict[str, Any]]:
    page = (await client.get(DOCS.format(kb=kb), params={"limit": 50})).json()
    return {document["title"] or document["filename"]: document for document in page["items"]}


async def test_one_claim_ingests_the_queued_documents_of_a_knowledge_base(
    client: httpx.AsyncClient, pool: WorkerPool
) -> None:
    for title in ("alpha", "beta", "gamma"):
        await upload(client, title)
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.cell(0, 10, "Hello")
    broken = await client.post(
        DOCS.format(kb="kb"),
        files={"file": ("cut.pdf", bytes(pdf.output())[:200], "application/pdf")},
    )
    # The truncated PDF passes the upload checks and fails in the job, beside good documents.
    assert broken.status_code == 202, broken.text
    await upload(client, "elsewhere", kb="other")

    assert await pool.run_once()

    by_title = await documents(client)
    assert {title: by_title[title]["status"] for title in ("alpha", "beta", "gamma")} == {
        "alpha": "ready",
        "beta": "ready",
        "gamma": "ready",
    }
    assert by_title["cut.pdf"]["status"] == "failed"
    assert by_title["cut.pdf"]["error"]
    assert all(by_title[t]["chunk_count"] >= 1 for t in ("alpha", "beta", "gamma"))
    count = (await client.get("/v1/knowledge-bases/kb/chunks/count")).json()["count"]
    assert count == sum(by_title[t]["chunk_count"] for t in ("alpha", "beta", "gamma"))
    # Another knowledge base's job is not part of the batch: it waits for the next claim.
    assert (await documents(client, "other"))["elsewhere"]["status"] == "queued"
    assert await pool.run_once()
    assert (await documents(client, "other"))["elsewhere"]["status"] == "ready"
    assert not await pool.run_once()


async def test_a_document_that_breaks_the_batch_store_costs_only_its_own_job(
    client: httpx.AsyncClient, pool: WorkerPool, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows_of = store_step.chunk_rows

    def rows(document: Document, title: str, work: Work) -> Any:
        if title == "poison":
            raise RuntimeError("cannot store this one")
        return rows_of(document, title, work)

    monkeypatch.setattr(store_step, "chunk_rows", rows)
    for title in ("first", "poison", "last"):
        await upload(client, title)

    assert await pool.run_once()

    by_title = await documents(client)
    assert by_title["first"]["status"] == "ready"
    assert by_title["last"]["status"] == "ready"
    poison = by_title["poison"]
    assert poison["status"] == "embedding"
    assert poison["progress"]["retrying"] is True
    async with app.state.database.transaction() as session:
        job = await session.scalar(select(Job).where(Job.document_id == poison["id"]))
    assert job is not None
    assert (job.status, job.last_error) == ("queued", "internal error (RuntimeError)")
    count = (await client.get("/v1/knowledge-bases/kb/chunks/count")).json()["count"]
    assert count == by_title["first"]["chunk_count"] + by_title["last"]["chunk_count"]


async def upload_version(client: httpx.AsyncClient, version: str) -> str:
    text = f"Version {version} of the policy.\n\n" + " ".join(
        f"Rule {n} of version {version}." for n in range(30)
    )
    response = await client.post(DOCS.format(kb="kb"), json={"text": text, "external_id": "policy"})
    assert response.status_code == 202, response.text
    document_id: str = response.json()["id"]
    return document_id


async def only_version_left(client: httpx.AsyncClient, expected: str, gone: list[str]) -> None:
    page = (await client.get(DOCS.format(kb="kb"))).json()
    assert [(d["id"], d["external_id"], d["status"]) for d in page["items"]] == [
        (expected, "policy", "ready")
    ]
    for document_id in gone:
        assert (await client.get(f"{DOCS.format(kb='kb')}/{document_id}")).status_code == 404
    chunks = (await client.get("/v1/knowledge-bases/kb/chunks", params={"limit": 200})).json()
    assert {chunk["doc_id"] for chunk in chunks["items"]} == {expected}


async def ready_version_and_two_newer(
    client: httpx.AsyncClient, pool: WorkerPool
) -> tuple[str, str, str]:
    """Version 1 ingested, versions 2 and 3 of the same external id queued behind it."""
    first = await upload_version(client, "1")
    assert await pool.run_once()
    return first, await upload_version(client, "2"), await upload_version(client, "3")


async def test_a_newer_version_cancels_the_pending_one_at_upload(
    client: httpx.AsyncClient, pool: WorkerPool, app: FastAPI
) -> None:
    first, second, third = await ready_version_and_two_newer(client, pool)
    assert (await client.get(f"{DOCS.format(kb='kb')}/{second}")).status_code == 404
    async with app.state.database.transaction() as session:
        job = await session.scalar(select(Job).where(Job.document_id == second))
    assert job is None  # gone with its document

    assert await pool.run_once()

    await only_version_left(client, third, gone=[first, second])
    assert not await pool.run_once()  # the superseded version left no job behind


async def test_an_older_version_finishing_last_does_not_replace_a_newer_one(
    client: httpx.AsyncClient, pool: WorkerPool, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two versions on their way at once: what a queue written before uploads cancelled the
    # pending version holds. The pipeline still lets the newest win.
    decide = Catalogue.decide
    monkeypatch.setattr(
        Catalogue,
        "decide",
        lambda self, *args: dataclasses.replace(decide(self, *args), supersedes=None),
    )
    first, second, third = await ready_version_and_two_newer(client, pool)
    delay = "UPDATE jobs SET run_after = now() + interval '1 hour' WHERE document_id = :d"
    async with app.state.database.transaction() as session:
        await session.execute(text(delay), {"d": second})

    assert await pool.run_once()  # the third version alone: the second is not runnable
    newest = (await client.get(f"{DOCS.format(kb='kb')}/{third}")).json()
    assert (newest["status"], newest["external_id"]) == ("ready", "policy")
    assert (await client.get(f"{DOCS.format(kb='kb')}/{first}")).status_code == 404
    async with app.state.database.transaction() as session:
        await session.execute(
            text("UPDATE jobs SET run_after = now() WHERE document_id = :d"), {"d": second}
        )
    assert await pool.run_once()

    await only_version_left(client, third, gone=[first, second])


async def test_short_documents_are_stored_before_a_long_one_of_their_batch(
    client: httpx.AsyncClient,
    app: FastAPI,
    settings: Settings,
    embedders: FakeEmbedders,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored: list[list[str]] = []
    store = pipeline.store_works

    async def recording(
        database: Any, settings: Any, kb: Any, works: list[Work], unsettled: Any
    ) -> None:
        stored.append([work.document.title for work in works])
        await store(database, settings, kb, works, unsettled)

    monkeypatch.setattr(pipeline, "store_works", recording)
    long_text = "\n\n".join(f"Paragraph {n}. " + "Long words go on. " * 30 for n in range(12))
    response = await client.post(
        DOCS.format(kb="kb"),
        json={"text": long_text, "title": "long", "chunking": {"max_tokens": 64}},
    )
    assert response.status_code == 202
    for title in ("short one", "short two"):
        await upload(client, title)
    pool = worker_pool(
        app.state.database,
        settings.model_copy(update={"ingest_batch_size": 8, "embed_batch_size": 4}),
        embedders,
        concurrency=1,
    )

    assert await pool.run_once()

    by_title = await documents(client)
    assert by_title["long"]["chunk_count"] > 8  # several model batches
    assert all(document["status"] == "ready" for document in by_title.values())
    assert stored[0] == ["short one", "short two"]
    assert stored[-1] == ["long"]


async def test_a_batch_holds_a_bounded_number_of_uploaded_bytes(
    client: httpx.AsyncClient, app: FastAPI, settings: Settings, embedders: FakeEmbedders
) -> None:
    titles = ["first", "second", "third", "fourth"]
    for title in titles:
        await upload(client, title)
    sizes = {title: document["size_bytes"] for title, document in (await documents(client)).items()}
    # Beyond the first job, room for the second document's bytes but not the third's too.
    budget = sizes["second"] + sizes["third"] - 1
    pool = worker_pool(
        app.state.database,
        settings.model_copy(update={"ingest_batch_size": 8, "ingest_batch_bytes": budget}),
        embedders,
        concurrency=1,
    )

    assert await pool.run_once()

    statuses = {title: document["status"] for title, document in (await documents(client)).items()}
    assert statuses == {"first": "ready", "second": "ready", "third": "queued", "fourth": "queued"}
    assert await pool.run_once()
    assert {document["status"] for document in (await documents(client)).values()} == {"ready"}
