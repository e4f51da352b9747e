"""PATCH of a document: title, metadata, source URI and access change in place, with every copy
(chunks, events, a pending new version), in one transaction, and a running ingestion keeps it."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

import httpx
import numpy as np
import pytest

from app.chunks import copy_rows
from tests.auth.helpers import ADMIN_KEY, bearer, create_key
from tests.fakes import FakeEmbedders, HashEmbedder
from tests.helpers import wait_ready

KB = "/v1/knowledge-bases/kb"
DOCS = f"{KB}/documents"

GUIDE = """# Burrows

Wombats dig long burrows with several entrances, and they sleep in them through the day.

## Food

They graze on grasses, roots and bark at night, and they need little water to live on.
"""


@pytest.fixture
async def api(client: httpx.AsyncClient) -> httpx.AsyncClient:
    client.headers.update(bearer(ADMIN_KEY))
    response = await client.post("/v1/knowledge-bases", json={"name": "kb"})
    assert response.status_code == 201, response.text
    return client


class GatedEmbedder(HashEmbedder):
    """Holds every document embedding (in its worker thread) until `gate` is set."""

    def __init__(self) -> None:
        super().__init__(384)
        self.gate = threading.Event()
        self.entered = threading.Event()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.entered.set()
        if not self.gate.wait(30):
            raise TimeoutError("the test never opened the gate")
        return super().embed_documents(texts)


@pytest.fixture
def gated(embedders: FakeEmbedders) -> Iterator[GatedEmbedder]:
    embedder = GatedEmbedder()
    embedders.by_dimensions[384] = embedder
    yield embedder
    embedder.gate.set()  # never leave a worker thread waiting


async def upload(api: httpx.AsyncClient, text: str, **extra: Any) -> dict[str, Any]:
    response = await api.post(DOCS, params={"wait": "true"}, json={"text": text, **extra})
    assert response.status_code in (200, 202), response.text
    document = dict(response.json())
    assert document["status"] == "ready", document
    return document


async def patch(api: httpx.AsyncClient, doc: str, body: Any, **headers: str) -> httpx.Response:
    return await api.patch(f"{DOCS}/{doc}", json=body, headers=headers or None)


async def chunks_of(api: httpx.AsyncClient, doc: str) -> list[dict[str, Any]]:
    response = await api.get(f"{DOCS}/{doc}/chunks")
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


async def search(
    api: httpx.AsyncClient, query: str, filter_: dict[str, Any] | None = None, **headers: str
) -> list[dict[str, Any]]:
    body: dict[str, Any] = {"query": query, "mode": "text", "top_k": 50}
    if filter_ is not None:
        body["filter"] = filter_
    response = await api.post(f"{KB}/search", json=body, headers=headers or None)
    assert response.status_code == 200, response.text
    return list(response.json()["hits"])


async def events_of(api: httpx.AsyncClient, doc: str, **headers: str) -> list[dict[str, Any]]:
    response = await api.get("/v1/events", headers=headers or None)
    assert response.status_code == 200, response.text
    return [event for event in response.json()["items"] if event["subject_id"] == doc]


async def wait_embedding(api: httpx.AsyncClient, doc: str, gated: GatedEmbedder) -> None:
    """Until the document's job is held inside the embedder."""
    assert await asyncio.to_thread(gated.entered.wait, 30)
    assert (await api.get(f"{DOCS}/{doc}")).json()["status"] == "embedding"


async def test_title_and_metadata_change_in_chunks_search_and_filters(
    api: httpx.AsyncClient,
) -> None:
    document = await upload(
        api, GUIDE, title="Aardvark notes", metadata={"team": "docs", "year": 2020}
    )
    doc = document["id"]
    # A chunk with metadata of its own: it keeps it, and its presence makes search read
    # metadata filters from the chunks first, where a stale copy would still match.
    own_id = str(uuid.uuid4())
    own = await api.put(
        f"{KB}/chunks/{own_id}",
        json={"doc_id": doc, "text": "Wombat teeth never stop growing.", "metadata": {"own": 1}},
    )
    assert own.status_code in (200, 201), own.text
    ingested = {c["chunk_id"] for c in await chunks_of(api, doc)} - {own_id}
    assert ingested
    # The chunk API's chunk has a doc_title of its own (none here); ingested ones the title.
    assert {hit["chunk_id"] for hit in await search(api, "aardvark")} == ingested

    response = await patch(
        api, doc, {"title": "Quokka handbook", "metadata": {"team": "ops", "level": True}}
    )
    assert response.status_code == 200, response.text
    patched = response.json()
    assert (patched["id"], patched["title"]) == (doc, "Quokka handbook")
    assert patched["metadata"] == {"team": "ops", "level": True}  # replaced, `year` gone
    assert datetime.fromisoformat(patched["updated_at"]) > datetime.fromisoformat(
        document["updated_at"]
    )
    assert (await api.get(f"{DOCS}/{doc}")).json() == patched

    chunks = await chunks_of(api, doc)
    assert {chunk["doc_title"] for chunk in chunks} == {"Quokka handbook"}
    by_id = {chunk["chunk_id"]: chunk["metadata"] for chunk in chunks}
    assert by_id.pop(own_id) == {"own": 1}
    assert by_id
    assert all(metadata == {"team": "ops", "level": True} for metadata in by_id.values())

    # Full text indexes the chunks' doc_title: the new title's words match, the old ones not.
    assert await search(api, "aardvark") == []
    hits = await search(api, "quokka")
    assert {hit["chunk_id"] for hit in hits} == {chunk["chunk_id"] for chunk in chunks}
    for hit in hits:
        assert hit["doc_title"] == "Quokka handbook"
        expected = {"team": "ops", "level": True} | (
            {"own": 1} if hit["chunk_id"] == own_id else {}
        )
        assert hit["metadata"] == expected
    assert len(await search(api, "wombat", {"metadata.team": "ops"})) == len(chunks)
    assert len(await search(api, "wombat", {"metadata.level": True})) == len(chunks)
    assert await search(api, "wombat", {"metadata.team": "docs"}) == []
    assert await search(api, "wombat", {"metadata.year": 2020}) == []
    assert len(await search(api, "wombat", {"doc_title": "Quokka handbook"})) == len(chunks)
    assert await search(api, "wombat", {"doc_title": "Aardvark notes"}) == []
    listed = await api.get(DOCS, params={"filter": json.dumps({"metadata.team": "ops"})})
    assert [d["id"] for d in listed.json()["items"]] == [doc]

    # Metadata alone: the chunks' copies follow, the chunk's own metadata stays.
    response = await patch(api, doc, {"metadata": {"team": "sales"}})
    assert response.status_code == 200, response.text
    assert response.json()["title"] == "Quokka handbook"
    chunks = await chunks_of(api, doc)
    assert {c["chunk_id"]: c["metadata"] for c in chunks}.pop(own_id) == {"own": 1}
    assert [c["metadata"] for c in chunks if c["chunk_id"] != own_id] == [{"team": "sales"}] * (
        len(chunks) - 1
    )
    assert len(await search(api, "wombat", {"metadata.team": "sales"})) == len(chunks)
    assert await search(api, "wombat", {"metadata.team": "ops"}) == []


async def test_source_uri_and_external_id_reference(api: httpx.AsyncClient) -> None:
    document = await upload(
        api, "Numbats eat termites.", external_id="numbat", source_uri="https://a.test/n"
    )
    response = await patch(api, "numbat", {"source_uri": "https://b.test/n"})
    assert response.status_code == 200, response.text
    assert (response.json()["id"], response.json()["source_uri"]) == (
        document["id"],
        "https://b.test/n",
    )
    hits = await search(api, "termites", {"source_uri": "https://b.test/n"})
    assert [hit["doc_id"] for hit in hits] == [document["id"]]
    cleared = await patch(api, document["id"], {"source_uri": None})
    assert cleared.status_code == 200, cleared.text
    assert cleared.json()["source_uri"] is None
    assert (await api.get(f"{DOCS}/numbat")).json()["source_uri"] is None


async def test_invalid_patches_are_422_and_change_nothing(api: httpx.AsyncClient) -> None:
    document = await upload(api, "Bilbies have long ears.", title="Bilby", metadata={"a": 1})
    doc = document["id"]
    invalid: list[tuple[Any, list[Any]]] = [
        ({}, ["body"]),
        ({"title": None}, ["body", "title"]),
        ({"metadata": None}, ["body", "metadata"]),
        ({"title": ""}, ["body", "title"]),
        ({"title": "x" * 1001}, ["body", "title"]),
        ({"title": "a\u0000b"}, ["body", "title"]),
        ({"metadata": ["a"]}, ["body", "metadata"]),
        ({"metadata": {"k": "\ud800"}}, ["body", "metadata"]),
        ({"source_uri": "u" * 4001}, ["body", "source_uri"]),
        ({"access": {"principals": ["has space"]}}, ["body", "access", "principals", 0]),
        ({"access": {}}, ["body", "access", "principals"]),
        ({"external_id": "other"}, ["body", "external_id"]),
        ({"title": "ok", "status": "ready"}, ["body", "status"]),
        (["title"], ["body"]),
    ]
    for body, loc in invalid:
        # json.dumps escapes the lone surrogate as "\ud800", which httpx cannot encode.
        response = await api.patch(
            f"{DOCS}/{doc}",
            content=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        assert response.status_code == 422, (body, response.text)
        problem = response.json()
        assert problem["type"].endswith("/validation-error"), problem
        assert loc in [error["loc"] for error in problem["errors"]], (body, problem["errors"])
    not_json = await api.patch(
        f"{DOCS}/{doc}", content=b"title=x", headers={"content-type": "text/plain"}
    )
    assert not_json.status_code == 415
    assert (await api.get(f"{DOCS}/{doc}")).json() == document
    assert {c["doc_title"] for c in await chunks_of(api, doc)} == {"Bilby"}

    for missing in (str(uuid.uuid4()), "no-such-external-id"):
        response = await patch(api, missing, {"title": "x"})
        assert response.status_code == 404, response.text
        assert response.headers["content-type"].startswith("application/problem+json")


async def test_updated_event_and_audit(api: httpx.AsyncClient) -> None:
    document = await upload(api, "Echidnas lay eggs.", title="Echidna", metadata={"n": 1})
    doc = document["id"]
    response = await patch(
        api, doc, {"title": "Spiny anteater", "metadata": {"n": 2}, "source_uri": "s://e"}
    )
    assert response.status_code == 200, response.text
    events = await events_of(api, doc)
    assert [event["type"] for event in events] == ["document.ready", "document.updated"]
    data = events[1]["data"]
    assert data["changed"] == ["title", "metadata", "source_uri"]
    assert (data["title"], data["metadata"], data["source_uri"], data["status"]) == (
        "Spiny anteater",
        {"n": 2},
        "s://e",
        "ready",
    )
    only = await api.get("/v1/events", params={"type": "document.updated"})
    assert [event["subject_id"] for event in only.json()["items"]] == [doc]

    # The same values again change nothing: no event, the same updated_at.
    again = await patch(api, doc, {"title": "Spiny anteater", "metadata": {"n": 2}})
    assert again.status_code == 200, again.text
    assert again.json()["updated_at"] == response.json()["updated_at"]
    assert len(await events_of(api, doc)) == 2
    # JSON's equality, not Python's: true is not 1.
    flag = await patch(api, doc, {"metadata": {"n": True}})
    assert flag.json()["metadata"] == {"n": True}
    assert (await events_of(api, doc))[-1]["data"]["changed"] == ["metadata"]

    audit = await api.get("/v1/audit", params={"operation": "documents-update"})
    assert audit.status_code == 200, audit.text
    rows = [(e["method"], e["status"], e["target"]) for e in audit.json()["items"]]
    assert rows == [("PATCH", 200, {"kb": "kb", "doc": doc})] * 3


async def test_access_change_applies_to_reads_search_and_events(
    api: httpx.AsyncClient,
) -> None:
    keys = {
        "staff": await create_key(api, "default", scopes=["read"], principals=["group:staff"]),
        "hr": await create_key(api, "default", scopes=["read"], principals=["group:hr"]),
        "plain": await create_key(api, "default", scopes=["read"]),
        "staff_writer": await create_key(
            api, "default", scopes=["write"], principals=["group:staff"]
        ),
    }
    as_ = {name: bearer(created["key"]) for name, created in keys.items()}
    document = await upload(api, "Ocelots hunt at night.", access={"principals": ["group:staff"]})
    doc = document["id"]

    async def sees(name: str) -> bool:
        """Whether the key reads the document, finds it, lists its chunks and its events,
        all four agreeing."""
        got = (await api.get(f"{DOCS}/{doc}", headers=as_[name])).status_code
        hits = await search(api, "ocelots", **as_[name])
        chunks = await api.get(f"{KB}/chunks", params={"doc_id": doc}, headers=as_[name])
        events = await events_of(api, doc, **as_[name])
        found = [got == 200, bool(hits), chunks.json()["total"] > 0, bool(events)]
        assert got in (200, 404)
        assert len(set(found)) == 1, (name, found)
        return found[0]

    assert (await sees("staff"), await sees("hr"), await sees("plain")) == (True, False, False)

    denied = await patch(api, doc, {"access": None}, **as_["staff"])
    assert denied.status_code == 403  # a read key may not write
    moved = await patch(api, doc, {"access": {"principals": ["group:hr"]}}, **as_["staff_writer"])
    assert moved.status_code == 200, moved.text
    assert moved.json()["access"] == {"principals": ["group:hr"]}
    # At once, and for the document's earlier events too (document.ready).
    assert (await sees("staff"), await sees("hr"), await sees("plain")) == (False, True, False)
    assert [e["type"] for e in await events_of(api, doc, **as_["hr"])] == [
        "document.ready",
        "document.updated",
    ]
    # The writer can no longer read it, so cannot change it either: as missing as any.
    again = await patch(api, doc, {"title": "Mine again"}, **as_["staff_writer"])
    assert again.status_code == 404

    public = await patch(api, doc, {"access": None})
    assert public.status_code == 200, public.text
    assert public.json()["access"] is None
    assert (await sees("staff"), await sees("hr"), await sees("plain")) == (True, True, True)
    admins_only = await patch(api, doc, {"access": {"principals": []}})
    assert admins_only.status_code == 200, admins_only.text
    assert (await sees("staff"), await sees("hr"), await sees("plain")) == (False, False, False)
    assert (await api.get(f"{DOCS}/{doc}")).status_code == 200  # admins read everything


async def test_patch_while_embedding_reaches_the_chunks(
    api: httpx.AsyncClient, gated: GatedEmbedder
) -> None:
    created = await api.post(DOCS, json={"text": GUIDE, "title": "Draft", "metadata": {"v": 1}})
    assert created.status_code == 202, created.text
    doc = created.json()["id"]
    await wait_embedding(api, doc, gated)
    response = await patch(api, doc, {"title": "Final", "metadata": {"v": 2}})
    assert response.status_code == 200, response.text
    assert (response.json()["status"], response.json()["title"]) == ("embedding", "Final")

    gated.gate.set()
    ready = await wait_ready(api, f"{DOCS}/{doc}")
    assert (ready["status"], ready["title"], ready["metadata"]) == ("ready", "Final", {"v": 2})
    chunks = await chunks_of(api, doc)
    assert chunks
    assert all((c["doc_title"], c["metadata"]) == ("Final", {"v": 2}) for c in chunks)
    assert len(await search(api, "final", {"metadata.v": 2})) == len(chunks)
    ready_event = [e for e in await events_of(api, doc) if e["type"] == "document.ready"]
    assert ready_event[0]["data"]["title"] == "Final"


async def test_patch_waits_for_the_store_step_and_then_updates_its_chunks(
    api: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PATCH that arrives while the store step holds the document waits for it, then
    changes the chunks it wrote (had it changed the chunks first, it would have found none)."""
    entered, release = asyncio.Event(), asyncio.Event()
    insert_rows = copy_rows.insert_rows

    async def held(*args: Any) -> Any:
        entered.set()
        await release.wait()
        return await insert_rows(*args)

    monkeypatch.setattr(copy_rows, "insert_rows", held)
    created = await api.post(DOCS, json={"text": GUIDE, "metadata": {"v": 1}})
    doc = created.json()["id"]
    await asyncio.wait_for(entered.wait(), 30)
    pending = asyncio.create_task(patch(api, doc, {"title": "Stored", "metadata": {"v": 2}}))
    await asyncio.sleep(0.3)
    assert not pending.done()  # waiting for the store step's lock on the document
    release.set()
    response = await asyncio.wait_for(pending, 30)
    assert response.status_code == 200, response.text
    assert (response.json()["status"], response.json()["title"]) == ("ready", "Stored")
    chunks = await chunks_of(api, doc)
    assert chunks
    assert all((c["doc_title"], c["metadata"]) == ("Stored", {"v": 2}) for c in chunks)


async def test_patch_of_an_external_id_reaches_its_pending_version(
    api: httpx.AsyncClient, gated: GatedEmbedder
) -> None:
    gated.gate.set()
    old = await upload(api, "Platypus, version one.", external_id="platypus", title="One")
    gated.gate.clear()
    gated.entered.clear()
    created = await api.post(
        DOCS,
        json={
            "text": "Platypus, version two.",
            "external_id": "platypus",
            "title": "Two",
            "metadata": {"from": "upload"},
        },
    )
    assert created.status_code == 202, created.text
    new = created.json()["id"]
    await wait_embedding(api, new, gated)

    body = {"title": "Renamed", "metadata": {"from": "patch"}, "access": {"principals": ["g:a"]}}
    response = await patch(api, "platypus", body)
    assert response.status_code == 200, response.text
    assert (response.json()["id"], response.json()["title"]) == (old["id"], "Renamed")
    pending = (await api.get(f"{DOCS}/{new}")).json()
    assert (pending["title"], pending["metadata"], pending["access"]) == (
        "Renamed",
        {"from": "patch"},
        {"principals": ["g:a"]},
    )

    gated.gate.set()
    await wait_ready(api, f"{DOCS}/{new}")
    current = (await api.get(f"{DOCS}/platypus")).json()
    assert (current["id"], current["title"], current["metadata"], current["access"]) == (
        new,
        "Renamed",
        {"from": "patch"},
        {"principals": ["g:a"]},
    )
    assert (await api.get(f"{DOCS}/{old['id']}")).status_code == 404
    chunks = await chunks_of(api, new)
    assert chunks
    assert all((c["doc_title"], c["metadata"]) == ("Renamed", {"from": "patch"}) for c in chunks)


async def test_metadata_nested_too_deep_is_refused(api: httpx.AsyncClient) -> None:
    # Stored, such metadata once made every later read of the event feed fail (a 500).
    document = await upload(api, "Deep thoughts.")
    url = f"{DOCS}/{document['id']}"
    json_type = {"content-type": "application/json"}
    for depth in (33, 300):
        deep = '{"a":' * depth + "1" + "}" * depth
        for response in (
            await api.patch(url, content=f'{{"metadata": {deep}}}', headers=json_type),
            await api.post(DOCS, content=f'{{"text": "x", "metadata": {deep}}}', headers=json_type),
        ):
            assert response.status_code == 422, (depth, response.text[:200])
            assert response.headers["content-type"] == "application/problem+json"
    fine = '{"a":' * 31 + "1" + "}" * 31
    assert (await api.patch(url, content=f'{{"metadata": {fine}}}', headers=json_type)).is_success
    assert (await api.get("/v1/events")).status_code == 200


async def test_metadata_is_bounded(api: httpx.AsyncClient) -> None:
    # Copied into every chunk and event: one request must not multiply megabytes.
    document = await upload(api, "Large metadata.")
    big = {"blob": "x" * 70_000}
    patched = await patch(api, document["id"], {"metadata": big})
    assert patched.status_code == 422
    assert "65536" in patched.json()["detail"]
    chunk = {"text": "t", "doc_id": document["id"], "metadata": big}
    assert (await api.post(f"{KB}/chunks/bulk", json={"chunks": [chunk]})).status_code == 422
    assert (await api.post(DOCS, json={"text": "y", "metadata": big})).status_code == 422
    assert (await patch(api, document["id"], {"metadata": {"blob": "x" * 60_000}})).is_success
