"""The graph stage end to end: extraction, merge, provenance, pruning, retrieval, enrichment."""

from __future__ import annotations

import httpx

from tests.graph.corpus import CURIE, OTTERS, entity_names, graph_settled, kb_body

KB = "/v1/knowledge-bases/science"


async def upload(client: httpx.AsyncClient, text: str, external_id: str) -> str:
    response = await client.post(
        f"{KB}/documents", params={"wait": "true"}, json={"text": text, "external_id": external_id}
    )
    assert response.status_code in (200, 201, 202), response.text
    assert response.json()["status"] == "ready", response.text
    return str(response.json()["id"])


async def test_extraction_merge_and_provenance(client: httpx.AsyncClient) -> None:
    created = await client.post("/v1/knowledge-bases", json=kb_body("science"))
    assert created.status_code == 201, created.text
    assert created.json()["graph"] == {"enabled": True, "extractor": "local"}
    curie = await upload(client, CURIE, "curie")
    otters = await upload(client, OTTERS, "otters")
    status = await graph_settled(client, "science")
    assert status["jobs"]["succeeded"] == 2, status
    names = await entity_names(client, "science")
    assert {"Marie Curie", "Pierre Curie", "University of Paris", "Pacific Ocean"} <= names

    # Merged: Marie Curie is named in three sentences, one entity with a mention per chunk.
    listed = await client.get(f"{KB}/graph/entities", params={"q": "marie curie"})
    [marie] = listed.json()["items"]
    assert marie["type"] == "PERSON"
    assert marie["key"] == "marie curie"
    detail = (await client.get(f"{KB}/graph/entities/{marie['id']}")).json()
    assert {m["document_id"] for m in detail["mentions"]} == {curie}
    assert "Marie Curie" in (detail["summary"] or "")
    works = [r for r in detail["relations"] if r["target_name"] == "University of Paris"]
    assert works, detail["relations"]
    assert works[0]["type"] == "work", works
    assert works[0]["chunks"], works[0]

    # Deleting a document removes exactly its contributions.
    deleted = await client.delete(f"{KB}/documents/{curie}")
    assert deleted.status_code == 204
    names = await entity_names(client, "science")
    assert "Marie Curie" not in names
    assert {"Pacific Ocean", "Kelp forests"} <= names
    gone = await client.get(f"{KB}/graph/entities/{marie['id']}")
    assert gone.status_code == 404
    status = (await client.get(f"{KB}/graph/status")).json()
    kept = (await client.get(f"{KB}/graph/entities", params={"limit": 200})).json()["total"]
    assert status["entities"] == kept  # the pruned rows are gone, not merely hidden
    assert otters


async def test_reindex_replaces_the_document_contribution(client: httpx.AsyncClient) -> None:
    await client.post("/v1/knowledge-bases", json=kb_body("science"))
    await upload(client, OTTERS, "otters")
    await graph_settled(client, "science")
    assert "Pacific Ocean" in await entity_names(client, "science")
    changed = OTTERS.replace("Pacific Ocean", "Arctic Sea")
    await upload(client, changed, "otters")  # a new version replaces the old one
    await graph_settled(client, "science")
    names = await entity_names(client, "science")
    assert "Arctic Sea" in names
    assert "Pacific Ocean" not in names


async def test_enrichment_lands_on_the_tree_and_in_search_context(
    client: httpx.AsyncClient,
) -> None:
    await client.post("/v1/knowledge-bases", json=kb_body("science"))
    doc = await upload(client, CURIE, "curie")
    await graph_settled(client, "science")
    tree = (await client.get(f"{KB}/documents/{doc}/tree")).json()["root"]
    enrichment = tree["enrichment"]
    assert enrichment["summary"].startswith("Marie Curie")
    assert len(enrichment["summary"]) < len(tree["text"])
    assert any("Curie" in k for k in enrichment["keywords"])
    assert {"text": "Marie Curie", "type": "PERSON", "score": None} in enrichment["entities"]
    hits = await client.post(
        f"{KB}/search", json={"query": "Nobel Prize Stockholm", "include": ["context"]}
    )
    assert hits.status_code == 200, hits.text
    context = hits.json()["hits"][0]["context"]
    assert any(a.get("summary") for a in context["ancestors"]), context
    # The reference's chunk fields: the ancestors' summaries, root first, and the own node's.
    assert context["parent_summaries"][0] == enrichment["summary"]
    assert context["parent_summaries"] == [
        a["summary"] for a in context["ancestors"] if a["summary"]
    ]


async def test_settings_change_queues_existing_documents(client: httpx.AsyncClient) -> None:
    await client.post("/v1/knowledge-bases", json={"name": "science"})
    await upload(client, OTTERS, "otters")
    before = (await client.get(f"{KB}/graph/status")).json()
    assert before["jobs"]["succeeded"] == 0
    assert before["entities"] == 0
    patched = await client.patch(KB, json={"graph": {"enabled": True}})
    assert patched.status_code == 200, patched.text
    status = await graph_settled(client, "science")
    assert status["jobs"]["succeeded"] == 1
    assert status["entities"] > 0
    # Turning it off drops the graph.
    await client.patch(KB, json={"graph": {"enabled": False}})
    assert (await client.get(f"{KB}/graph/status")).json()["entities"] == 0


async def test_graph_off_queues_no_graph_work(client: httpx.AsyncClient) -> None:
    await client.post("/v1/knowledge-bases", json={"name": "science"})
    await upload(client, CURIE, "curie")
    status = (await client.get(f"{KB}/graph/status")).json()
    assert sum(status["jobs"].values()) == 0
    assert status["entities"] == 0
