"""Knowledge sources end to end: a folder edited between syncs, dry runs, records, an http
source against a loopback server, deletion, and a run resumed after it was killed."""

from __future__ import annotations

import asyncio
import os
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.config import Settings
from app.models import Source, SourceRun
from app.sources import service
from app.sources import sync as syncing
from app.sources.adapters.folder import FolderAdapter
from tests.helpers import wait_ready
from tests.sources.pages import serve

KB = "/v1/knowledge-bases/kb"
SOURCES = f"{KB}/sources"


@pytest.fixture
async def kb(client: httpx.AsyncClient) -> None:
    created = await client.post("/v1/knowledge-bases", json={"name": "kb"})
    assert created.status_code == 201


async def finished(client: httpx.AsyncClient, source: str, run: dict[str, Any]) -> dict[str, Any]:
    for _ in range(600):
        got = (await client.get(f"{SOURCES}/{source}/runs/{run['id']}")).json()
        if got["status"] in ("succeeded", "failed"):
            return got
        await asyncio.sleep(0.05)
    raise AssertionError(f"run {run['id']} did not finish")


async def sync(client: httpx.AsyncClient, source: str) -> dict[str, Any]:
    started = await client.post(f"{SOURCES}/{source}/sync", json={})
    assert started.status_code == 202, started.text
    return await finished(client, source, started.json())


async def dry(client: httpx.AsyncClient, source: str) -> dict[str, Any]:
    answer = await client.post(f"{SOURCES}/{source}/sync", json={"dry_run": True})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


async def documents_of(client: httpx.AsyncClient) -> dict[str, dict[str, Any]]:
    page = (await client.get(f"{KB}/documents", params={"limit": 200})).json()
    return {d["external_id"]: d for d in page["items"] if d["external_id"] is not None}


async def all_ready(client: httpx.AsyncClient) -> dict[str, dict[str, Any]]:
    for document in (await documents_of(client)).values():
        await wait_ready(client, f"{KB}/documents/{document['id']}")
    return await documents_of(client)


async def replaced(
    client: httpx.AsyncClient, external_id: str, old_id: str
) -> dict[str, dict[str, Any]]:
    """The documents once the new version of `external_id` took over from `old_id`."""
    for _ in range(600):
        documents = await all_ready(client)
        if documents[external_id]["id"] != old_id:
            return documents
        await asyncio.sleep(0.05)
    raise AssertionError(f"{external_id} was not replaced")


@pytest.mark.usefixtures("kb")
async def test_folder_edited_between_syncs(
    client: httpx.AsyncClient, settings: Settings, tmp_path: Path
) -> None:
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / "a.md").write_text("# Alpha\n\nApples grow in the orchard.")
    (root / "b.txt").write_text("Bananas ripen in the sun.")
    (root / "sub" / "c.md").write_text("# Cherry\n\nCherries are red.")
    (root / "skip.bin").write_bytes(b"\x00\x01")
    settings.source_roots = [tmp_path]
    created = await client.post(
        SOURCES, json={"name": "docs", "kind": "folder", "path": str(root), "exclude": ["x*"]}
    )
    assert created.status_code == 201, created.text
    source_id = created.json()["id"]

    plan = await dry(client, "docs")
    assert plan["counts"] == {"to_add": 3, "to_update": 0, "to_delete": 0, "unchanged": 0,
                              "failed": 0}  # fmt: skip
    run = await sync(client, "docs")
    assert run["status"] == "succeeded"
    assert run["counts"] == plan["counts"]
    documents = await all_ready(client)
    assert set(documents) == {"a.md", "b.txt", "sub/c.md"}
    assert {d["source_id"] for d in documents.values()} == {source_id}
    assert documents["sub/c.md"]["source_record_id"] == "sub/c.md"
    first_ids = {key: d["id"] for key, d in documents.items()}

    # No change: nothing is read again, nothing re-ingested.
    run = await sync(client, "docs")
    assert run["counts"]["unchanged"] == 3
    assert run["counts"]["to_add"] + run["counts"]["to_update"] == 0

    # Change one, touch one (same bytes), delete one, rename one, add a dangling symlink and a
    # symlink leaving the allowed folders.
    (root / "a.md").write_text("# Alpha\n\nApples and apricots grow in the orchard.")
    os.utime(root / "b.txt", ns=(1, 1))
    (root / "sub" / "c.md").rename(root / "sub" / "cherry.md")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.md"
    outside.write_text("secret")
    (root / "leak.md").symlink_to(outside)
    (root / "broken.md").symlink_to(root / "missing.md")
    plan = await dry(client, "docs")
    run = await sync(client, "docs")
    assert run["counts"] == plan["counts"]
    assert run["counts"] == {"to_add": 1, "to_update": 1, "to_delete": 1, "unchanged": 1,
                             "failed": 2}  # fmt: skip
    assert {e["item"] for e in run["errors"]} == {"leak.md", "broken.md"}
    documents = await replaced(client, "a.md", first_ids["a.md"])
    assert set(documents) == {"a.md", "b.txt", "sub/cherry.md"}
    assert documents["b.txt"]["id"] == first_ids["b.txt"]  # untouched, not re-ingested
    hits = (
        await client.post(
            f"{KB}/search",
            json={"query": "apricots", "mode": "text", "filter": {"source_id": source_id}},
        )
    ).json()["hits"]
    assert hits
    assert hits[0]["source_id"] == source_id
    assert hits[0]["source_record_id"] == "a.md"

    runs = (await client.get(f"{SOURCES}/docs/runs")).json()
    assert runs["total"] == 5  # three real runs and two dry runs
    events = (await client.get("/v1/events", params={"type": "source.synced"})).json()
    assert len(events["items"]) == 3
    health = (await client.get(f"{SOURCES}/docs/health")).json()
    assert health["ok"] is True
    audited = (await client.get("/v1/audit", params={"operation": "sources-sync-run"})).json()
    assert audited["total"] == 3


@pytest.mark.usefixtures("kb")
async def test_folder_outside_the_roots_is_refused(
    client: httpx.AsyncClient, settings: Settings, tmp_path: Path
) -> None:
    settings.source_roots = [tmp_path / "allowed"]
    (tmp_path / "allowed").mkdir()
    for path in ("/etc", str(tmp_path / "allowed" / ".." / "allowed"), str(tmp_path)):
        answer = await client.post(SOURCES, json={"name": "x", "kind": "folder", "path": path})
        assert answer.status_code == 422, path
        assert answer.headers["content-type"].startswith("application/problem+json")
    wrong = await client.post(SOURCES, json={"name": "x", "kind": "records", "path": "/tmp"})
    assert wrong.status_code == 422


@pytest.mark.usefixtures("kb")
async def test_a_source_without_what_its_kind_needs_is_refused(client: httpx.AsyncClient) -> None:
    # What the spec's schema of the body says too (tests/test_request_schemas.py).
    for body in (
        {"name": "x", "kind": "folder"},
        {"name": "x", "kind": "http"},
        {"name": "x", "kind": "http", "urls": [], "sitemaps": []},
    ):
        answer = await client.post(SOURCES, json=body)
        assert answer.status_code == 422, body
        assert answer.headers["content-type"].startswith("application/problem+json")
    assert (await client.get(SOURCES)).json()["items"] == []


@pytest.mark.usefixtures("kb")
async def test_records_pushed_updated_deleted(client: httpx.AsyncClient) -> None:
    created = await client.post(
        SOURCES,
        json={"name": "crm", "kind": "records", "access": {"principals": ["group:sales"]}},
    )
    source_id = created.json()["id"]
    pushed = await client.post(
        f"{SOURCES}/crm/records",
        json={"records": [
            {"op": "upsert", "record_id": "acct-1", "title": "Acme",
             "fields": {"notes": "Acme renews its zeppelin contract in May."}},
            {"op": "upsert", "record_id": "acct-2", "content": "Globex buys submarines."},
        ]},
    )  # fmt: skip
    assert pushed.status_code == 200, pushed.text
    assert [r["result"] for r in pushed.json()["results"]] == ["created", "created"]
    documents = await all_ready(client)
    assert documents["acct-1"]["access"] == {"principals": ["group:sales"]}
    assert documents["acct-1"]["source_record_id"] == "acct-1"

    again = await client.post(
        f"{SOURCES}/crm/records",
        json={"records": [
            {"op": "upsert", "record_id": "acct-2", "content": "Globex buys submarines."},
            {"op": "upsert", "record_id": "acct-1", "title": "Acme",
             "fields": {"notes": "Acme renews its airship contract in June."}},
            {"op": "delete", "record_id": "acct-9"},
        ]},
    )  # fmt: skip
    assert [r["result"] for r in again.json()["results"]] == ["unchanged", "updated", "absent"]
    await replaced(client, "acct-1", pushed.json()["results"][0]["document_id"])
    hits = (
        await client.post(
            f"{KB}/search",
            json={"query": "airship", "mode": "text",
                  "filter": {"source_record_id": "acct-1", "source_id": source_id}},
        )
    ).json()["hits"]  # fmt: skip
    assert [h["source_record_id"] for h in hits] == ["acct-1"]
    gone = await client.post(
        f"{SOURCES}/crm/records", json={"records": [{"op": "delete", "record_id": "acct-1"}]}
    )
    assert gone.json()["results"][0]["result"] == "deleted"
    assert set(await documents_of(client)) == {"acct-2"}
    bad = await client.post(f"{SOURCES}/crm/records", json={"records": [{"op": "upsert",
                            "record_id": "x"}]})  # fmt: skip
    assert bad.status_code == 422

    # Deleting the source keeps its documents, detached, when asked.
    deleted = await client.delete(f"{SOURCES}/crm", params={"keep_documents": "true"})
    assert deleted.status_code == 204
    kept = await documents_of(client)
    assert kept["acct-2"]["source_id"] is None


@pytest.mark.usefixtures("kb")
async def test_http_source_with_etags_and_refused_redirects(
    client: httpx.AsyncClient, settings: Settings
) -> None:
    settings.source_allow_private = False
    settings.source_allowed_networks = ["127.0.0.0/8"]
    with serve() as site:
        site.article("/one", "Leave", "Twenty-five days of leave a year.", etag='"1"')
        site.article("/two", "Travel", "Trains are booked two weeks ahead.")
        site.pages["/away"] = (302, {"Location": "http://10.1.2.3/"}, b"")
        site.pages["/robots.txt"] = (200, {"Content-Type": "text/plain"}, b"User-agent: *\n")
        settings.source_max_page_bytes = 16 * 1024
        settings.source_fetch_timeout_s = 1.0
        urls = [f"{site.base}/{path}" for path in ("one", "two", "away", "big", "slow")]
        created = await client.post(SOURCES, json={"name": "web", "kind": "http", "urls": urls})
        assert created.status_code == 201, created.text
        run = await sync(client, "web")
        assert run["counts"]["to_add"] == 2
        assert run["counts"]["failed"] == 3
        errors = {e["item"].rsplit("/", 1)[1]: e["error"] for e in run["errors"]}
        assert "refused" in errors["away"]
        assert "larger than" in errors["big"]
        assert "longer than" in errors["slow"]
        documents = await all_ready(client)
        page = documents[f"{site.base}/one"]
        assert page["source_uri"] == f"{site.base}/one"
        tree = (await client.get(f"{KB}/documents/{page['id']}/tree")).json()
        assert "About us" not in str(tree)  # the navigation is not main content
        assert "Copyright" not in str(tree)

        site.requests.clear()
        run = await sync(client, "web")
        assert run["counts"]["unchanged"] == 2
        settings.source_fetch_timeout_s = 30.0
        conditional = [h for p, h in site.requests if p == "/one"]
        assert conditional[0].get("If-None-Match") == '"1"'

        # A URL upload takes the same path.
        uploaded = await client.post(
            f"{KB}/documents?wait=true", json={"url": f"{site.base}/two", "external_id": "t"}
        )
        assert uploaded.status_code == 200, uploaded.text
        assert uploaded.json()["source_uri"] == f"{site.base}/two"
        refused = await client.post(f"{KB}/documents", json={"url": f"{site.base}/away"})
        assert refused.status_code == 422
        assert refused.json()["type"].endswith("/url-unfetchable")
        settings.source_allowed_networks = []
        refused = await client.post(f"{KB}/documents", json={"url": f"{site.base}/one"})
        assert refused.json()["reason"] == "refused"


@pytest.mark.usefixtures("kb")
async def test_a_killed_run_resumes_without_duplicates(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for n in range(10):
        (tmp_path / f"f{n}.md").write_text(f"# File {n}\n\nThe text of file number {n}.")
    settings.source_roots = [tmp_path]
    created = await client.post(
        SOURCES, json={"name": "big", "kind": "folder", "path": str(tmp_path)}
    )
    database = app.state.database
    # A run without its job, so that only this test runs it.
    async with database.transaction() as session:
        source = await session.get(Source, uuid.UUID(created.json()["id"]))
        assert source is not None
        run = service._new_run(source, trigger="manual", dry_run=False)
        session.add(run)
    monkeypatch.setattr(syncing, "BATCH", 3)
    original = FolderAdapter.fetch
    calls = 0

    async def dies_at_the_fifth(self: FolderAdapter, *args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise asyncio.CancelledError  # the process stops mid-run
        return await original(self, *args)

    monkeypatch.setattr(FolderAdapter, "fetch", dies_at_the_fifth)
    with pytest.raises(asyncio.CancelledError):
        await syncing.Syncer(database, settings).run(run.id)
    half = (await client.get(f"{SOURCES}/big/runs/{run.id}")).json()
    assert half["status"] == "running"
    assert half["counts"]["to_add"] == 3  # the first batch was stored

    await syncing.Syncer(database, settings).run(run.id)  # claimed again after its lease
    done = (await client.get(f"{SOURCES}/big/runs/{run.id}")).json()
    assert done["status"] == "succeeded"
    assert done["counts"]["to_add"] == 10
    page = (await client.get(f"{KB}/documents", params={"limit": 100})).json()
    assert page["total"] == 10
    assert sorted(d["external_id"] for d in page["items"]) == sorted(f"f{n}.md" for n in range(10))


@pytest.mark.usefixtures("kb")
async def test_sitemaps_crawl_and_robots(client: httpx.AsyncClient, settings: Settings) -> None:
    with serve() as site:
        site.article("/one", "One", "The first page.")
        site.article("/about", "About", "Who we are.")
        site.article("/private", "Private", "Not for robots.")
        locs = "".join(f"<url><loc>{site.base}{p}</loc></url>" for p in ("/one", "/private"))
        site.pages["/sitemap.xml"] = (
            200,
            {"Content-Type": "application/xml"},
            f'<?xml version="1.0"?><urlset xmlns="x">{locs}</urlset>'.encode(),
        )
        site.pages["/robots.txt"] = (200, {}, b"User-agent: *\nDisallow: /private\n")
        created = await client.post(
            SOURCES,
            json={"name": "site", "kind": "http", "sitemaps": [f"{site.base}/sitemap.xml"],
                  "urls": [f"{site.base}/one"], "crawl": {"depth": 1, "max_pages": 10}},
        )  # fmt: skip
        assert created.status_code == 201, created.text
        plan = await dry(client, "site")
        items = {i["item"].removeprefix(site.base): i["action"] for i in plan["items"]}
        # /private is in the sitemap but robots.txt keeps it out; the crawl found / and /about.
        assert items == {"/one": "add", "/about": "add"}
        assert plan["counts"]["failed"] == 1  # "/" answers 404
        assert [e["item"] for e in plan["errors"]] == [f"{site.base}/"]


@pytest.mark.usefixtures("kb")
@pytest.mark.parametrize(
    ("every", "shown"), [("60s", "1m"), ("9999999s", "9999999s"), ("9999h", "9999h")]
)
async def test_a_schedule_up_to_its_longest_is_stored_as_sent(
    client: httpx.AsyncClient, every: str, shown: str
) -> None:
    created = await client.post(
        SOURCES, json={"name": "pushed", "kind": "records", "schedule": {"every": every}}
    )
    assert created.status_code == 201, created.text
    assert created.json()["schedule"]["every"] == shown
    listed = (await client.get(f"{SOURCES}/pushed")).json()
    assert listed["schedule"]["every"] == shown


@pytest.mark.usefixtures("kb")
async def test_a_schedule_past_its_longest_is_refused_and_nothing_stored(
    client: httpx.AsyncClient,
) -> None:
    # 449521 days is more seconds than the stored interval can hold.
    for every in ("1000d", "449521d", "10000000s", "1000000m", "10000h"):
        refused = await client.post(
            SOURCES, json={"name": "pushed", "kind": "records", "schedule": {"every": every}}
        )
        assert refused.status_code == 422, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
    assert (await client.get(SOURCES)).json()["items"] == []


@pytest.mark.usefixtures("kb")
async def test_schedules_never_overlap(app: FastAPI, client: httpx.AsyncClient) -> None:
    created = await client.post(
        SOURCES, json={"name": "pushed", "kind": "records", "schedule": {"every": "1h"}}
    )
    assert created.json()["schedule"]["every"] == "1h"
    source_id = uuid.UUID(created.json()["id"])
    database = app.state.database
    settings = app.state.settings
    async with database.transaction() as session:
        source = await session.get(Source, source_id)
        assert source is not None
        busy = service._new_run(source, trigger="manual", dry_run=False)
        busy.status = "running"
        session.add(busy)
        source.next_run_at = datetime.now(UTC) - timedelta(minutes=1)
    assert await service.enqueue_due(database, settings) == 0  # a run is under way
    conflict = await client.post(f"{SOURCES}/pushed/sync", json={})
    assert conflict.status_code == 409
    async with database.transaction() as session:
        run = await session.get(SourceRun, busy.id)
        assert run is not None
        run.status = "succeeded"
    assert await service.enqueue_due(database, settings) == 1
    assert await service.enqueue_due(database, settings) == 0  # next due in an hour
    runs = (await client.get(f"{SOURCES}/pushed/runs")).json()["items"]
    assert runs[0]["trigger"] == "schedule"


@pytest.mark.usefixtures("kb")
async def test_a_source_never_takes_over_an_upload(
    client: httpx.AsyncClient, settings: Settings, tmp_path: Path
) -> None:
    (tmp_path / "a.md").write_text("# A\n\nThe source's version.")
    (tmp_path / "empty.md").write_text("   ")
    uploaded = await client.post(
        f"{KB}/documents", json={"text": "# A\n\nUploaded by hand.", "external_id": "a.md"}
    )
    settings.source_roots = [tmp_path]
    await client.post(SOURCES, json={"name": "f", "kind": "folder", "path": str(tmp_path)})
    plan = await dry(client, "f")
    run = await sync(client, "f")
    assert run["counts"]["failed"] == 2
    assert plan["counts"] == run["counts"]
    errors = {e["item"]: e["error"] for e in run["errors"]}
    assert "held by another document" in errors["a.md"]
    assert "empty" in errors["empty.md"]
    document = (await client.get(f"{KB}/documents/a.md")).json()
    assert document["id"] == uploaded.json()["id"]
    assert document["source_id"] is None
    deleted = await client.delete(f"{SOURCES}/f")
    assert deleted.status_code == 204
    assert (await client.get(f"{KB}/documents/a.md")).status_code == 200  # not the source's


@pytest.mark.usefixtures("kb")
async def test_a_source_name_taken_is_a_409_and_nothing_else_changes(
    client: httpx.AsyncClient,
) -> None:
    body = {"name": "pushed", "kind": "records"}
    assert (await client.post(SOURCES, json=body)).status_code == 201
    again = await client.post(SOURCES, json=body)
    assert again.status_code == 409, again.text
    assert again.headers["content-type"] == "application/problem+json"
    renamed = await client.post(SOURCES, json={"name": "other", "kind": "records"})
    assert renamed.status_code == 201
    clash = await client.patch(f"{SOURCES}/other", json={"name": "pushed"})
    assert clash.status_code == 409, clash.text
    names = [s["name"] for s in (await client.get(SOURCES)).json()["items"]]
    assert sorted(names) == ["other", "pushed"]
