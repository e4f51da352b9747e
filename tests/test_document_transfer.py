"""A whole document out as JSON and back in: export, import, and what import refuses."""

from __future__ import annotations

from typing import Any

import httpx

from tests.fakes import FakeEmbedders
from tests.helpers import wait_ready

FILLER = "Each rule here has a reason, an owner and a date when it was last reviewed. " * 8
MARKDOWN = (
    f"# Handbook\n\nWho this handbook is for. {FILLER}\n\n"
    f"## Leave\n\nTwenty-five days of paid leave a year, booked in the leave planner. {FILLER}\n"
)
LINEAGE = ("text", "chunk_index", "node_path", "depth", "leaf_node_id", "section_titles")


def docs(kb: str) -> str:
    return f"/v1/knowledge-bases/{kb}/documents"


async def knowledge_base(client: httpx.AsyncClient, name: str, **extra: Any) -> None:
    created = await client.post("/v1/knowledge-bases", json={"name": name, **extra})
    assert created.status_code == 201, created.text


async def handbook(client: httpx.AsyncClient, kb: str = "source") -> dict[str, Any]:
    await knowledge_base(client, kb)
    uploaded = await client.post(
        docs(kb),
        params={"wait": "true"},
        json={"text": MARKDOWN, "external_id": "handbook", "metadata": {"team": "hr"}},
    )
    assert uploaded.json()["status"] == "ready", uploaded.text
    return dict(uploaded.json())


async def chunks_of(client: httpx.AsyncClient, kb: str, doc: str) -> list[dict[str, Any]]:
    page = await client.get(f"{docs(kb)}/{doc}/chunks", params={"include_vector": "true"})
    return list(page.json()["items"])


async def document_count(client: httpx.AsyncClient, kb: str) -> int:
    return int((await client.get(docs(kb))).json()["total"])


async def test_an_export_imports_as_the_same_document(client: httpx.AsyncClient) -> None:
    original = await handbook(client)
    exported = await client.get(f"{docs('source')}/handbook/export", params={"vectors": "true"})
    assert exported.status_code == 200, exported.text
    body = exported.json()
    assert body["external_id"] == "handbook"
    assert body["tree"]["text"].startswith("# Handbook")
    assert all(isinstance(chunk["vector"], str) for chunk in body["chunks"])  # base64

    await knowledge_base(client, "copy")
    imported = await client.post(f"{docs('copy')}/import", json=body)
    assert imported.status_code == 201, imported.text
    document = imported.json()["document"]
    assert (document["status"], document["chunk_count"]) == ("ready", original["chunk_count"])
    assert imported.json()["chunks"]["embedded"] == original["chunk_count"]
    assert document["metadata"] == {"team": "hr"}

    trees = [
        (await client.get(f"{docs(kb)}/handbook/tree")).json()["root"] for kb in ("source", "copy")
    ]
    assert trees[0] == trees[1]
    before, after = (
        await chunks_of(client, "source", "handbook"),
        await chunks_of(client, "copy", "handbook"),
    )
    assert [[c[key] for key in LINEAGE] for c in before] == [
        [c[key] for key in LINEAGE] for c in after
    ]
    assert [c["vector"] for c in before] == [c["vector"] for c in after]
    assert {c["chunk_id"] for c in before}.isdisjoint(c["chunk_id"] for c in after)

    found = await client.post(
        "/v1/knowledge-bases/copy/search",
        json={"query": "paid leave planner", "mode": "text", "filter": {"metadata.team": "hr"}},
    )
    assert "Twenty-five days" in found.json()["hits"][0]["text"]
    events = (await client.get("/v1/events", params={"type": "document.ready"})).json()
    assert document["id"] in {event["data"]["id"] for event in events["items"]}


async def test_a_tree_alone_is_chunked_and_embedded_by_the_service(
    client: httpx.AsyncClient,
) -> None:
    original = await handbook(client)
    body = (await client.get(f"{docs('source')}/handbook/export")).json()
    body.pop("chunks")
    await knowledge_base(client, "copy")
    imported = await client.post(f"{docs('copy')}/import", json={**body, "external_id": None})
    assert imported.status_code == 202, imported.text
    assert imported.json()["chunks"] is None
    document = await wait_ready(client, f"{docs('copy')}/{imported.json()['document']['id']}")
    assert (document["status"], document["chunk_count"]) == ("ready", original["chunk_count"])
    assert document["embedded_count"] == original["chunk_count"]
    texts = [c["text"] for c in await chunks_of(client, "copy", document["id"])]
    assert texts == [c["text"] for c in await chunks_of(client, "source", "handbook")]


async def test_chunks_alone_are_embedded_and_the_document_has_no_tree(
    client: httpx.AsyncClient, embedders: FakeEmbedders
) -> None:
    await knowledge_base(client, "plain")
    body = {
        "title": "Notes",
        "metadata": {"source": "notes"},
        "chunks": [
            {"text": "first note about leave"},
            {"text": "second note", "chunk_index": 7, "metadata": {"own": True}},
        ],
    }
    imported = await client.post(f"{docs('plain')}/import", json=body)
    assert imported.status_code == 201, imported.text
    document = imported.json()["document"]
    assert (document["chunk_count"], document["embedded_count"]) == (2, 2)
    stored = await chunks_of(client, "plain", document["id"])
    assert [c["metadata"] for c in stored] == [{"source": "notes"}, {"own": True}]
    assert [(c["chunk_index"], c["doc_title"]) for c in stored] == [(0, "Notes"), (7, "Notes")]
    # Embedded as every chunk is: under its document's title (the context header).
    expected = embedders.by_dimensions[384].vector("Notes\n\nfirst note about leave")
    assert max(abs(a - b) for a, b in zip(stored[0]["vector"], expected, strict=True)) < 1e-6
    assert (await client.get(f"{docs('plain')}/{document['id']}/tree")).status_code == 409
    exported = (await client.get(f"{docs('plain')}/{document['id']}/export")).json()
    assert exported["tree"] is None
    assert [c["text"] for c in exported["chunks"]] == ["first note about leave", "second note"]


async def test_bad_imports_are_refused_whole(client: httpx.AsyncClient) -> None:
    await handbook(client)
    good = (
        await client.get(f"{docs('source')}/handbook/export", params={"vectors": "true"})
    ).json()
    await knowledge_base(client, "copy")
    await knowledge_base(client, "small", embedding={"provider": "none", "dimensions": 8})
    root = good["tree"]["root"]
    wrong_text = {**good, "tree": {**good["tree"], "root": {**root, "text": "not the text"}}}
    unknown_node = {**good, "chunks": [{**good["chunks"][0], "node_path": ["nope"]}]}
    other_model = {**good, "embedding_model": "openai:text-embedding-3-small:-"}
    tree = good["tree"]
    backwards = {**good, "chunks": [{**good["chunks"][0], "start_offset": 20, "end_offset": 5}]}
    no_text = {
        "tree": {
            **tree,
            "text": " ",
            "root": {
                **root,
                "text": " ",
                "children": [],
                "range": {"start_offset": 0, "end_offset": 1},
            },
        }
    }
    exe = {**good, "tree": {**tree, "format": "exe"}}
    pages = {**good, "tree": {**tree, "page_count": 2, "page_offsets": [0, 10**6]}}
    long_id = {"tree": {**tree, "root": {**root, "node_id": "n" * 65}}}
    first = {key: value for key, value in good["chunks"][0].items() if key != "chunk_index"}
    twice = {**good, "external_id": None, "chunks": [{**first, "chunk_index": 1}, first, first]}
    cases: list[tuple[str, dict[str, Any], int, str]] = [
        ("copy", {"title": "empty"}, 422, "needs a `tree`, `chunks`"),
        ("copy", wrong_text, 422, "is not text[0:"),
        ("copy", unknown_node, 422, "'nope'"),
        ("copy", other_model, 422, "leave the vectors out"),
        ("small", {**good, "embedding_model": None}, 422, "dimension"),
        ("source", good, 409, "'handbook' is in use"),
        ("copy", backwards, 422, "end_offset (5) is before start_offset (20)"),
        ("copy", no_text, 422, "text is empty"),
        ("copy", exe, 422, "Unknown format 'exe'"),
        ("copy", pages, 422, "`page_offsets` must give"),
        ("copy", long_id, 422, "at most 64 characters"),
        # The third chunk's index is its position, 2: it collides with none.
        ("copy", twice, 422, "chunks[1] has chunk_index 1, as chunks[0] has"),
    ]
    for kb, body, code, says in cases:
        response = await client.post(f"{docs(kb)}/import", json=body)
        assert response.status_code == code, (says, response.text)
        assert says in response.json()["detail"], response.text
    assert [await document_count(client, kb) for kb in ("copy", "small", "source")] == [0, 0, 1]
    # Ids are unique within a knowledge base: the originals' ids, kept, are free in another.
    kept = await client.post(f"{docs('copy')}/import", params={"keep_chunk_ids": "true"}, json=good)
    assert kept.status_code == 201, kept.text
    assert await document_count(client, "copy") == 1
    not_json = await client.post(
        f"{docs('copy')}/import", content=b"x", headers={"content-type": "text/plain"}
    )
    assert not_json.status_code == 415
