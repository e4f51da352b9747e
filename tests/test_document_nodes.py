"""A document's tree nodes as rows (migration 0031): they follow the tree, whoever writes it,
and a hit's context reads them instead of the tree."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import text

from tests.helpers import statements_sent, wait_ready

KB = "/v1/knowledge-bases/nodes"
DOCS = f"{KB}/documents"
LONG = "Every clause of the lease names who pays for which repair and by when. " * 80
MARKDOWN = f"# Lease\n\nWho signs the lease.\n\n## Repairs\n\n{LONG}\n\n## Rent\n\nPaid monthly.\n"
SUMMARY = {"summary": "Who pays for repairs."}


def tree_nodes(root: dict[str, Any]) -> dict[str, tuple[int, dict[str, Any]]]:
    """node id -> (depth, node) for every node of an API tree."""
    found: dict[str, tuple[int, dict[str, Any]]] = {}
    stack = [(0, root)]
    while stack:
        depth, node = stack.pop()
        found[node["node_id"]] = (depth, node)
        stack.extend((depth + 1, child) for child in node.get("children", []))
    return found


async def node_rows(
    app: FastAPI, document_id: str
) -> dict[str, tuple[int, dict[str, Any], str, int]]:
    async with app.state.database.transaction() as session:
        rows = await session.execute(
            text(
                "SELECT node_id, depth, node, text, text_length FROM document_nodes "
                "WHERE document_id = CAST(:d AS uuid)"
            ),
            {"d": document_id},
        )
        return {row[0]: (row[1], row[2], row[3], row[4]) for row in rows.all()}


async def tree_of(client: httpx.AsyncClient, document_id: str) -> dict[str, Any]:
    response = await client.get(f"{DOCS}/{document_id}/tree")
    assert response.status_code == 200, response.text
    root: dict[str, Any] = response.json()["root"]
    return root


def assert_rows_match(rows: dict[str, Any], root: dict[str, Any]) -> None:
    """A row for every node but the sentences, with what a context returns of it."""
    nodes = {k: v for k, v in tree_nodes(root).items() if v[1]["kind"] != "sentence"}
    assert set(rows) == set(nodes)
    for node_id, (depth, node) in nodes.items():
        row_depth, row_node, row_text, row_length = rows[node_id]
        assert row_depth == depth
        assert row_node.get("enrichment") == node.get("enrichment")
        assert (row_node["kind"], row_node.get("title")) == (node["kind"], node.get("title"))
        assert "children" not in row_node
        assert "text" not in row_node
        assert row_text == node["text"][:4000]
        assert row_length == len(node["text"])


async def test_node_rows_follow_the_tree_through_uploads_enrichment_reindex_and_delete(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "nodes"})).status_code == 201
    uploaded = await client.post(DOCS, params={"wait": "true"}, json={"text": MARKDOWN})
    assert uploaded.json()["status"] == "ready", uploaded.text
    doc_id = uploaded.json()["id"]
    root = await tree_of(client, doc_id)
    rows = await node_rows(app, doc_id)
    assert_rows_match(rows, root)
    assert max(length for *_, length in rows.values()) > 4000  # the cut was exercised

    repairs = next(n for _, n in tree_nodes(root).values() if n.get("title") == "Repairs")
    written = await client.put(
        f"{DOCS}/{doc_id}/nodes/{repairs['node_id']}/enrichment", json=SUMMARY
    )
    assert written.status_code == 200, written.text
    enriched = await tree_of(client, doc_id)
    assert_rows_match(await node_rows(app, doc_id), enriched)
    assert (await node_rows(app, doc_id))[repairs["node_id"]][1]["enrichment"]["summary"] == (
        SUMMARY["summary"]
    )

    reindexed = await client.post(f"{DOCS}/{doc_id}/reindex")
    assert reindexed.status_code == 202, reindexed.text
    assert (await wait_ready(client, f"{DOCS}/{doc_id}"))["status"] == "ready"
    assert_rows_match(await node_rows(app, doc_id), await tree_of(client, doc_id))

    assert (await client.delete(f"{DOCS}/{doc_id}")).status_code == 204
    assert await node_rows(app, doc_id) == {}


async def test_a_hits_context_is_read_from_the_node_rows_not_the_tree(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "nodes"})).status_code == 201
    uploaded = await client.post(DOCS, params={"wait": "true"}, json={"text": MARKDOWN})
    doc_id = uploaded.json()["id"]
    nodes = tree_nodes(await tree_of(client, doc_id))
    with statements_sent(app.state.database.engine) as sent:
        found = await client.post(
            f"{KB}/search",
            json={"query": "who pays for which repair", "mode": "text", "include": ["context"]},
        )
    assert found.status_code == 200, found.text
    hit = found.json()["hits"][0]
    context = hit["context"]
    # The ancestors are the chunk's path above its own node, each as the tree has it.
    ancestors = [a["node_id"] for a in context["ancestors"]]
    assert ancestors == hit["node_path"][: len(ancestors)]
    assert ancestors
    assert [nodes[a][1].get("title") for a in ancestors] == [
        a.get("title") for a in context["ancestors"]
    ]
    assert context["parent"]["title"] == "Repairs"
    assert context["parent"]["truncated"] is True
    assert context["parent"]["text"] == nodes[context["parent"]["node_id"]][1]["text"][:4000]
    # No statement read a tree's contents (asking whether there is one reads nothing of it).
    assert not any("tree->" in s or "documents.tree," in s for s, _ in sent)
    assert any("document_nodes" in s for s, _ in sent)


async def test_a_chunk_inside_one_sentence_has_its_sentence_in_its_context(
    client: httpx.AsyncClient,
) -> None:
    """Sentences have no rows: a chunk cut from one long sentence ends its path there, and its
    context (the sentence's own enrichment) comes from the tree."""
    created = await client.post(
        "/v1/knowledge-bases",
        json={"name": "nodes", "chunking": {"max_tokens": 32, "overlap_tokens": 4}},
    )
    assert created.status_code == 201, created.text
    sentence = " ".join(["the tenant repaints every wall of the flat"] * 12) + "."
    uploaded = await client.post(
        DOCS, params={"wait": "true"}, json={"text": f"# Flat\n\n{sentence} Short one."}
    )
    doc_id = uploaded.json()["id"]
    nodes = tree_nodes(await tree_of(client, doc_id))
    leaves = {node_id for node_id, (_, node) in nodes.items() if node["kind"] == "sentence"}
    chunks = (await client.get(f"{DOCS}/{doc_id}/chunks")).json()["items"]
    inside = [c for c in chunks if c["node_path"][-1] in leaves]
    assert inside  # the long sentence was cut into chunks of its own
    leaf = inside[0]["node_path"][-1]
    written = await client.put(
        f"{DOCS}/{doc_id}/nodes/{leaf}/enrichment", json={"summary": "About repainting."}
    )
    assert written.status_code == 200, written.text
    found = await client.post(
        f"{KB}/search",
        json={"query": "tenant repaints walls", "mode": "text", "include": ["context"]},
    )
    hit = next(h for h in found.json()["hits"] if h["node_path"][-1] == leaf)
    assert hit["context"]["summary"] == "About repainting."
    ancestors = [a["node_id"] for a in hit["context"]["ancestors"]]
    assert ancestors == hit["node_path"][:-1]
