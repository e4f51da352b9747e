"""Node enrichment: written through the API, kept with the tree, returned by search's context."""

from __future__ import annotations

from typing import Any

import httpx

from tests.helpers import wait_ready

KB = "/v1/knowledge-bases/enriched"
DOCS = f"{KB}/documents"
FILLER = "Each rule here has a reason, an owner and a date when it was last reviewed. " * 8
MARKDOWN = (
    f"# Handbook\n\nWho this handbook is for. {FILLER}\n\n"
    f"## Leave\n\nTwenty-five days of paid leave a year, booked in the leave planner. {FILLER}\n"
)
SUMMARY = {
    "summary": "How much leave there is and how to book it.",
    "entities": [{"text": "leave planner", "type": "PRODUCT", "score": 0.9}],
    "keywords": ["leave", "booking"],
}


async def handbook(client: httpx.AsyncClient) -> tuple[str, dict[str, Any]]:
    """A ready document and its tree's root."""
    created = await client.post("/v1/knowledge-bases", json={"name": "enriched"})
    assert created.status_code == 201, created.text
    uploaded = await client.post(DOCS, params={"wait": "true"}, json={"text": MARKDOWN})
    assert uploaded.json()["status"] == "ready", uploaded.text
    doc_id = uploaded.json()["id"]
    tree = (await client.get(f"{DOCS}/{doc_id}/tree")).json()
    return doc_id, tree["root"]


def section(root: dict[str, Any], title: str) -> dict[str, Any]:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.get("kind") == "section" and node.get("title") == title:
            return node
        stack.extend(node.get("children", []))
    raise AssertionError(f"no section {title!r}")


async def test_enrichment_is_kept_with_the_tree_and_read_back(client: httpx.AsyncClient) -> None:
    doc_id, root = await handbook(client)
    leave = section(root, "Leave")
    assert "enrichment" not in leave  # parsing never writes one
    url = f"{DOCS}/{doc_id}/nodes/{leave['node_id']}/enrichment"
    written = await client.put(url, json=SUMMARY)
    assert written.status_code == 200, written.text
    assert written.json()["summary"] == SUMMARY["summary"]

    node = (await client.get(f"{DOCS}/{doc_id}/nodes/{leave['node_id']}")).json()
    assert node["enrichment"] == SUMMARY
    tree = (await client.get(f"{DOCS}/{doc_id}/tree")).json()
    assert section(tree["root"], "Leave")["enrichment"] == SUMMARY
    paragraph = section(tree["root"], "Leave")["children"][0]
    ancestors = (await client.get(f"{DOCS}/{doc_id}/nodes/{paragraph['node_id']}/ancestors")).json()
    assert [a.get("enrichment") for a in ancestors][-1] == SUMMARY

    removed = await client.delete(url)
    assert removed.status_code == 204
    node = (await client.get(f"{DOCS}/{doc_id}/nodes/{leave['node_id']}")).json()
    assert "enrichment" not in node


async def test_search_context_returns_the_ancestors_summaries(client: httpx.AsyncClient) -> None:
    doc_id, root = await handbook(client)
    leave, top = section(root, "Leave"), section(root, "Handbook")
    batch = await client.patch(
        f"{DOCS}/{doc_id}/enrichment",
        json={
            "nodes": [
                {"node_id": leave["node_id"], "enrichment": SUMMARY},
                {"node_id": top["node_id"], "enrichment": {"summary": "The staff handbook."}},
            ]
        },
    )
    assert batch.status_code == 200, batch.text
    assert (batch.json()["written"], batch.json()["enriched_nodes"]) == (2, 2)
    found = await client.post(
        f"{KB}/search",
        json={"query": "paid leave planner", "mode": "text", "include": ["context"]},
    )
    hit = found.json()["hits"][0]
    assert "Twenty-five days" in hit["text"]
    context = hit["context"]
    summaries = [node["summary"] for node in context["ancestors"]]
    assert "The staff handbook." in summaries
    assert context["parent"]["summary"] == SUMMARY["summary"]
    assert context["parent"]["entities"] == SUMMARY["entities"]
    assert context["parent"]["keywords"] == SUMMARY["keywords"]


async def test_a_batch_is_written_whole_or_not_at_all(client: httpx.AsyncClient) -> None:
    doc_id, root = await handbook(client)
    leave = section(root, "Leave")
    url = f"{DOCS}/{doc_id}/enrichment"
    good = {"node_id": leave["node_id"], "enrichment": SUMMARY}
    unknown = await client.patch(url, json={"nodes": [good, {"node_id": "nope", "enrichment": {}}]})
    assert unknown.status_code == 422
    assert "'nope'" in unknown.json()["detail"]
    twice = await client.patch(url, json={"nodes": [good, good]})
    assert twice.status_code == 422
    node = (await client.get(f"{DOCS}/{doc_id}/nodes/{leave['node_id']}")).json()
    assert "enrichment" not in node  # neither request wrote its good half

    # null removes; the count says what is left.
    assert (await client.patch(url, json={"nodes": [good]})).json()["enriched_nodes"] == 1
    cleared = await client.patch(url, json={"nodes": [{**good, "enrichment": None}]})
    assert cleared.json() == {"document_id": doc_id, "written": 1, "enriched_nodes": 0}


async def test_bad_enrichment_is_refused(client: httpx.AsyncClient) -> None:
    doc_id, root = await handbook(client)
    url = f"{DOCS}/{doc_id}/nodes/{section(root, 'Leave')['node_id']}/enrichment"
    for body in (
        {"summary": "nul \u0000 inside"},
        {"summary": ""},
        {"keywords": ["x"] * 101},
        {"entities": [{"text": "a", "score": 1.5}]},
        {"entities": [{"type": "PERSON"}]},
        {"sentiment": "positive"},
    ):
        response = await client.put(url, json=body)
        assert response.status_code == 422, body
        assert response.headers["content-type"] == "application/problem+json"
    missing = await client.put(f"{DOCS}/{doc_id}/nodes/nope/enrichment", json=SUMMARY)
    assert missing.status_code == 404
    assert (await client.put(f"{DOCS}/nope/nodes/x/enrichment", json=SUMMARY)).status_code == 404


async def test_a_reindex_keeps_the_enrichment(client: httpx.AsyncClient) -> None:
    """At every depth: the root, a section, and the deepest node of the tree."""
    doc_id, root = await handbook(client)
    deepest = root
    while deepest.get("children"):
        deepest = deepest["children"][-1]
    enriched = {
        root["node_id"]: {"summary": "The whole handbook."},
        section(root, "Leave")["node_id"]: SUMMARY,
        deepest["node_id"]: {"keywords": ["last"]},
    }
    assert len(enriched) == 3
    for node_id, enrichment in enriched.items():
        url = f"{DOCS}/{doc_id}/nodes/{node_id}/enrichment"
        assert (await client.put(url, json=enrichment)).status_code == 200
    started = await client.post(f"{DOCS}/{doc_id}/reindex")
    assert started.status_code == 202, started.text
    assert (await wait_ready(client, f"{DOCS}/{doc_id}"))["status"] == "ready"
    for node_id, enrichment in enriched.items():
        node = (await client.get(f"{DOCS}/{doc_id}/nodes/{node_id}")).json()
        assert {k: v for k, v in node["enrichment"].items() if v} == enrichment


async def test_a_document_without_a_tree_has_nothing_to_enrich(client: httpx.AsyncClient) -> None:
    await client.post("/v1/knowledge-bases", json={"name": "enriched"})
    put = await client.put(
        f"{KB}/chunks/{'0' * 8}-0000-4000-8000-{'0' * 12}",
        json={"text": "a chunk of its own", "doc_id": "loose"},
    )
    assert put.status_code in (200, 201), put.text
    refused = await client.put(f"{DOCS}/loose/nodes/root/enrichment", json=SUMMARY)
    assert refused.status_code == 409


async def test_contexts_by_chunk_id_match_the_search_hits(client: httpx.AsyncClient) -> None:
    doc_id, root = await handbook(client)
    leave = section(root, "Leave")
    await client.put(f"{DOCS}/{doc_id}/nodes/{leave['node_id']}/enrichment", json=SUMMARY)
    found = await client.post(
        f"{KB}/search", json={"query": "paid leave", "mode": "text", "include": ["context"]}
    )
    hits = found.json()["hits"]
    contexts = await client.post(
        f"{KB}/chunks/context", json={"chunk_ids": [hit["chunk_id"] for hit in hits]}
    )
    assert contexts.status_code == 200, contexts.text
    assert [item["context"] for item in contexts.json()["items"]] == [h["context"] for h in hits]
    assert contexts.json()["items"][0]["context"]["parent"]["summary"] == SUMMARY["summary"]
    too_many = await client.post(
        f"{KB}/chunks/context", json={"chunk_ids": [hits[0]["chunk_id"]] * 201}
    )
    assert too_many.status_code == 422
