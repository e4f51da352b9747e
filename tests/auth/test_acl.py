"""Document access lists: hidden inside SQL, before top_k, and as missing as a missing document."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from app.search import plans, repository
from tests.auth.helpers import bearer, create_key, create_project, upload

SECRET = {"principals": ["group:secret"]}
HIDDEN = 12
PUBLIC = 6
TOP_K = 5


async def setup_corpus(client: httpx.AsyncClient) -> dict[str, Any]:
    """Twelve secret documents that outrank six public ones for "zebra", text and vector."""
    await create_project(client, "acme")
    write = (await create_key(client, "acme", scopes=["write"]))["key"]
    # Chunks go into the secret documents too, and a writer writes only what it may read.
    secret_writer = (
        await create_key(client, "acme", scopes=["write"], principals=["group:secret"])
    )["key"]
    kb = (
        await client.post(
            "/v1/knowledge-bases",
            json={"name": "acl", "embedding": {"provider": "none", "dimensions": 4}},
            headers=bearer(write),
        )
    ).json()["id"]
    hidden = await asyncio.gather(
        *(
            upload(client, write, kb, f"zebra zebra zebra zebra stripes {i}", access=SECRET)
            for i in range(HIDDEN)
        )
    )
    public = await asyncio.gather(
        *(
            upload(
                client,
                write,
                kb,
                f"A long public note, number {i}, that mentions a zebra only once among words.",
            )
            for i in range(PUBLIC)
        )
    )
    # Vectors: the secret documents are exactly the query, the public ones close to it.
    chunks = [
        {"doc_id": doc, "text": f"vector chunk {n}", "vector": [1.0, 0.0, 0.0, 0.0]}
        for n, doc in enumerate(document["id"] for document in hidden)
    ] + [
        {"doc_id": doc, "text": f"vector chunk p{n}", "vector": [0.9, 0.3 + n / 100, 0.0, 0.0]}
        for n, doc in enumerate(document["id"] for document in public)
    ]
    response = await client.post(
        f"/v1/knowledge-bases/{kb}/chunks/bulk",
        json={"chunks": chunks},
        headers=bearer(secret_writer),
    )
    assert response.status_code == 200, response.text
    keys = {
        "staff": await create_key(client, "acme", scopes=["read"], principals=["group:staff"]),
        "secret": await create_key(client, "acme", scopes=["read"], principals=["group:secret"]),
        "nobody": await create_key(client, "acme", scopes=["read"]),
        "gateway": await create_key(client, "acme", scopes=["read"], delegate=True),
        "admin": await create_key(client, "acme", scopes=["admin"]),
    }
    return {
        "kb": kb,
        "hidden": [document["id"] for document in hidden],
        "public": [document["id"] for document in public],
        "write": write,
        "keys": {name: created["key"] for name, created in keys.items()},
    }


SEARCHES: list[dict[str, Any]] = [
    {"query": "zebra", "mode": "text"},
    {"vector": [1.0, 0.0, 0.0, 0.0], "mode": "vector"},
    {"query": "zebra", "vector": [1.0, 0.0, 0.0, 0.0], "mode": "hybrid"},
]


@pytest.mark.parametrize("search", SEARCHES, ids=lambda s: s["mode"])
async def test_top_k_readable_hits_although_better_ones_are_hidden(
    client: httpx.AsyncClient, search: dict[str, Any]
) -> None:
    corpus = await setup_corpus(client)
    url = f"/v1/knowledge-bases/{corpus['kb']}/search"
    # candidates == top_k: had the access check run after the candidate LIMIT, the hidden
    # documents (ranked first) would have used up every slot.
    body = search | {"top_k": TOP_K, "candidates": TOP_K}
    for who in ("staff", "nobody"):
        response = await client.post(url, json=body, headers=bearer(corpus["keys"][who]))
        assert response.status_code == 200, response.text
        docs = [hit["doc_id"] for hit in response.json()["hits"]]
        assert len(docs) == TOP_K
        assert set(docs) <= set(corpus["public"])
    for who in ("secret", "admin"):
        response = await client.post(url, json=body, headers=bearer(corpus["keys"][who]))
        docs = [hit["doc_id"] for hit in response.json()["hits"]]
        assert len(docs) == TOP_K
        assert set(docs) <= set(corpus["hidden"])
    response = await client.post(
        "/v1/search",
        json=body | {"knowledge_bases": [corpus["kb"]]},
        headers=bearer(corpus["keys"]["staff"]),
    )
    assert {hit["doc_id"] for hit in response.json()["hits"]} <= set(corpus["public"])


async def test_hidden_documents_are_skipped_by_list_or_by_lookup_alike(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = await setup_corpus(client)
    # Readable documents holding most chunks, as usual: the hidden ones are skipped by id.
    for i in range(3 * HIDDEN):
        await upload(client, corpus["write"], corpus["kb"], f"A field guide entry {i} on horses.")
    url = f"/v1/knowledge-bases/{corpus['kb']}/search"
    plans_seen: list[tuple[int, bool]] = []
    original = repository.search

    async def spy(session: AsyncSession, plan: plans.Plan) -> plans.Result:
        plans_seen.append((len(plan.excluded_documents), plan.check_documents))
        return await original(session, plan)

    monkeypatch.setattr(repository, "search", spy)

    async def hits() -> list[list[tuple[str, float]]]:
        found = []
        for search in SEARCHES:
            body: dict[str, Any] = {**search, "top_k": TOP_K, "candidates": TOP_K}
            for who in ("staff", "nobody"):
                response = await client.post(url, json=body, headers=bearer(corpus["keys"][who]))
                assert response.status_code == 200, response.text
                hits = response.json()["hits"]
                found.append([(h["chunk_id"], round(h["score"], 6)) for h in hits])
        return found

    listed = await hits()
    # More hidden documents than a search lists: each candidate's document is looked up.
    monkeypatch.setattr(repository, "HIDDEN_MAX_DOCUMENTS", len(corpus["hidden"]) - 1)
    looked_up = await hits()
    assert listed == looked_up
    assert all(len(each) == TOP_K for each in listed)
    searches = 2 * len(SEARCHES)
    hidden = len(corpus["hidden"])
    assert plans_seen == [(hidden, False)] * searches + [(0, True)] * searches


async def test_delegate_keys_read_as_the_user_they_name(client: httpx.AsyncClient) -> None:
    corpus = await setup_corpus(client)
    url = f"/v1/knowledge-bases/{corpus['kb']}/search"
    body = {"query": "zebra", "mode": "text", "top_k": 20}
    gateway = corpus["keys"]["gateway"]
    as_user = await client.post(
        url, json=body, headers=bearer(gateway, X_Arbor_Principals="user:ann, group:secret")
    )
    assert {hit["doc_id"] for hit in as_user.json()["hits"]} >= set(corpus["hidden"])
    # Without the header the gateway reads as itself: no principals, public documents only.
    alone = await client.post(url, json=body, headers=bearer(gateway))
    assert {hit["doc_id"] for hit in alone.json()["hits"]} == set(corpus["public"])
    # An empty header: a user with no principals.
    empty = await client.post(url, json=body, headers=bearer(gateway, X_Arbor_Principals=""))
    assert {hit["doc_id"] for hit in empty.json()["hits"]} == set(corpus["public"])
    # Only delegate keys may act for somebody else.
    refused = await client.post(
        url, json=body, headers=bearer(corpus["keys"]["staff"], X_Arbor_Principals="group:secret")
    )
    assert refused.status_code == 403
    assert refused.headers["content-type"] == "application/problem+json"


async def test_reads_of_hidden_documents_are_404(client: httpx.AsyncClient) -> None:
    corpus = await setup_corpus(client)
    kb = corpus["kb"]
    staff, secret = bearer(corpus["keys"]["staff"]), bearer(corpus["keys"]["secret"])
    doc = corpus["hidden"][0]
    for suffix in ("", "/tree", "/chunks"):
        url = f"/v1/knowledge-bases/{kb}/documents/{doc}{suffix}"
        assert (await client.get(url, headers=staff)).status_code == 404
        assert (await client.get(url, headers=secret)).status_code == 200
    listed = (
        await client.get(
            f"/v1/knowledge-bases/{kb}/documents", params={"limit": 200}, headers=staff
        )
    ).json()
    assert {d["id"] for d in listed["items"]} == set(corpus["public"])
    assert listed["total"] == PUBLIC
    chunks = (
        await client.get(f"/v1/knowledge-bases/{kb}/chunks", params={"limit": 200}, headers=staff)
    ).json()
    assert {c["doc_id"] for c in chunks["items"]} == set(corpus["public"])
    hidden_chunks = (
        await client.get(f"/v1/knowledge-bases/{kb}/documents/{doc}/chunks", headers=secret)
    ).json()["items"]
    chunk_url = f"/v1/knowledge-bases/{kb}/chunks/{hidden_chunks[0]['chunk_id']}"
    assert (await client.get(chunk_url, headers=staff)).status_code == 404
    assert (await client.get(chunk_url, headers=secret)).status_code == 200
    shown = (await client.get(f"/v1/knowledge-bases/{kb}/documents/{doc}", headers=secret)).json()
    assert shown["access"] == SECRET
    # Writes need the document to be readable too.
    deleted = await client.delete(
        f"/v1/knowledge-bases/{kb}/documents/{doc}", headers=bearer(corpus["write"])
    )
    assert deleted.status_code == 404


async def test_filtered_listing_and_deletion_see_only_readable_documents(
    client: httpx.AsyncClient,
) -> None:
    corpus = await setup_corpus(client)
    documents = f"/v1/knowledge-bases/{corpus['kb']}/documents"
    everything = {"filter": {"doc_id": {"$exists": True}}}
    staff, secret = bearer(corpus["keys"]["staff"]), bearer(corpus["keys"]["secret"])
    listed = await client.get(
        documents, params={"filter": json.dumps(everything["filter"]), "limit": 200}, headers=staff
    )
    assert {d["id"] for d in listed.json()["items"]} == set(corpus["public"])

    deleted = await client.post(
        f"{documents}/delete", json=everything, headers=bearer(corpus["write"])
    )
    assert deleted.json()["deleted"] == PUBLIC
    left = (await client.get(documents, params={"limit": 200}, headers=secret)).json()
    assert {d["id"] for d in left["items"]} == set(corpus["hidden"])
    # Reading is not deleting.
    refused = await client.post(f"{documents}/delete", json=everything, headers=secret)
    assert refused.status_code == 403


async def test_access_in_multipart_uploads_and_validation(client: httpx.AsyncClient) -> None:
    await create_project(client, "acme")
    write = (await create_key(client, "acme", scopes=["write"], principals=["u:1"]))["key"]
    reader = (await create_key(client, "acme", scopes=["read"], principals=["u:1"]))["key"]
    kb = (
        await client.post("/v1/knowledge-bases", json={"name": "kb"}, headers=bearer(write))
    ).json()["id"]
    url = f"/v1/knowledge-bases/{kb}/documents"
    response = await client.post(
        url,
        files={"file": ("a.md", b"# A\n\nmultipart text", "text/markdown")},
        data={"access": json.dumps({"principals": ["u:1"]})},
        headers=bearer(write),
    )
    assert response.status_code == 202, response.text
    assert response.json()["access"] == {"principals": ["u:1"]}
    for bad in ('{"principals": "u:1"}', '{"who": ["u:1"]}', '{"principals": ["has space"]}', "[]"):
        response = await client.post(
            url,
            files={"file": ("b.md", b"# B\n\ntext", "text/markdown")},
            data={"access": bad},
            headers=bearer(write),
        )
        assert response.status_code == 422, bad
    response = await client.post(
        url, json={"text": "t", "access": {"principals": ["a,b"]}}, headers=bearer(write)
    )
    assert response.status_code == 422
    # The same bytes under another access list are another document, not the same one.
    first = await upload(client, write, kb, "shared words", access={"principals": ["u:1"]})
    again = await client.post(url, json={"text": "shared words"}, headers=bearer(write))
    assert again.status_code == 202
    assert again.json()["id"] != first["id"]
    same = await client.post(
        url, json={"text": "shared words", "access": {"principals": ["u:1"]}}, headers=bearer(write)
    )
    assert same.status_code == 200
    assert same.json()["id"] == first["id"]
    # An access list is a set: order and repeats do not make another document.
    two = {"principals": ["u:2", "u:1", "u:2"]}
    pair = await client.post(url, json={"text": "pair", "access": two}, headers=bearer(write))
    assert pair.json()["access"] == {"principals": ["u:1", "u:2"]}
    swapped = {"principals": ["u:1", "u:2"]}
    again_pair = await client.post(
        url, json={"text": "pair", "access": swapped}, headers=bearer(write)
    )
    assert (again_pair.status_code, again_pair.json()["id"]) == (200, pair.json()["id"])
    readable = (await client.get(url, params={"limit": 200}, headers=bearer(reader))).json()
    assert first["id"] in {d["id"] for d in readable["items"]}


async def test_uploads_never_return_or_replace_a_hidden_document(
    client: httpx.AsyncClient,
) -> None:
    await create_project(client, "acme")
    admin = (await create_key(client, "acme", scopes=["admin"]))["key"]
    outsider = (await create_key(client, "acme", scopes=["write"]))["key"]
    kb = (
        await client.post("/v1/knowledge-bases", json={"name": "kb"}, headers=bearer(admin))
    ).json()["id"]
    hidden = await upload(
        client, admin, kb, "board minutes", access=SECRET, external_id="minutes",
        metadata={"confidential": True},
    )  # fmt: skip
    url = f"/v1/knowledge-bases/{kb}/documents"
    # The same bytes and access list: for a caller who cannot read it, not the same document.
    again = await client.post(
        url, json={"text": "board minutes", "access": SECRET}, headers=bearer(outsider)
    )
    assert again.status_code == 202
    assert again.json()["id"] != hidden["id"]
    assert again.json()["metadata"] == {}
    # Its external id cannot be used to replace it.
    replace = await client.post(
        url, json={"text": "new minutes", "external_id": "minutes"}, headers=bearer(outsider)
    )
    assert replace.status_code == 409
    # Said as it is, not as a lost race (callers retried).
    detail = replace.json()["detail"]
    assert "in use in this knowledge base by a document you cannot read" in detail
    batch = await client.post(
        f"{url}/batch",
        json={"documents": [{"text": "other"}, {"text": "new", "external_id": "minutes"}]},
        headers=bearer(outsider),
    )
    assert batch.status_code == 409
    assert batch.json()["detail"].startswith("documents[1]: External id 'minutes'")
    assert batch.json()["index"] == 1
    imported = await client.post(
        f"{url}/import",
        json={"external_id": "minutes", "chunks": [{"text": "new minutes"}]},
        headers=bearer(outsider),
    )
    assert imported.status_code == 409
    assert "by a document you cannot read" in imported.json()["detail"]
    kept = await client.get(f"{url}/minutes", headers=bearer(admin))
    assert kept.json()["id"] == hidden["id"]


async def test_filter_warnings_see_only_readable_documents(client: httpx.AsyncClient) -> None:
    """A metadata key held only by a hidden document is reported absent to a caller who cannot
    read it (nothing about the hidden document shows), and not to one who can."""
    corpus = await setup_corpus(client)
    await upload(
        client,
        corpus["write"],
        corpus["kb"],
        "zebra codename document",
        access=SECRET,
        metadata={"codename": "okapi"},
    )
    url = f"/v1/knowledge-bases/{corpus['kb']}/search"
    body = {"query": "zebra", "mode": "text", "filter": {"metadata.codename": "giraffe"}}
    for who, warned in (("staff", True), ("secret", False)):
        response = await client.post(url, json=body, headers=bearer(corpus["keys"][who]))
        assert response.status_code == 200, response.text
        assert response.json()["hits"] == []
        assert bool(response.json()["warnings"]) is warned, (who, response.json()["warnings"])
