"""POST /v1/search: several knowledge bases with one embedding model, one ranking."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from tests.search.corpus import ChunkSpec, add_document, create_kb, unit


async def multi(client: httpx.AsyncClient, expect: int = 200, **body: Any) -> dict[str, Any]:
    response = await client.post("/v1/search", json=body)
    assert response.status_code == expect, response.text
    found: dict[str, Any] = response.json()
    return found


async def test_results_of_several_knowledge_bases_are_merged(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    first = await create_kb(client, "first")
    second = await create_kb(client, "second", text_search_language="simple")
    await add_document(app, first, [ChunkSpec("owls hunt at night", unit([1, 0]))], title="a")
    await add_document(app, second, [ChunkSpec("owls sleep by day", unit([0.9, 0.1]))], title="b")
    await add_document(app, second, [ChunkSpec("cats purr", unit([0, 1]))], title="c")
    found = await multi(
        client,
        knowledge_bases=["first", second["id"], "first"],
        query="owls",
        vector=unit([1, 0]),
        include=["explain"],
    )
    assert [hit["doc_title"] for hit in found["hits"]][2] == "c"
    # One vector ranking across both knowledge bases.
    ranks = {hit["doc_title"]: hit["explain"]["vector_rank"] for hit in found["hits"]}
    assert ranks == {"a": 1, "b": 2, "c": 3}
    assert found["knowledge_bases"] == [first["id"], second["id"]]
    kb_of = {hit["doc_title"]: hit["knowledge_base_id"] for hit in found["hits"]}
    assert kb_of == {"a": first["id"], "b": second["id"], "c": second["id"]}
    assert found["candidates"] == {"vector": 3, "text": 2, "trigram": 0}
    assert all(hit["highlights"] for hit in found["hits"][:2])
    # Each knowledge base stems the query in its own language.
    stemmed = await multi(
        client, knowledge_bases=["first", "second"], query="the owls", mode="text"
    )
    assert stemmed["text_queries"] == {first["id"]: "'owl'", second["id"]: "'the' | 'owls'"}
    assert stemmed["text_query"] == "'owl'"


async def test_different_embedding_models_are_422(client: httpx.AsyncClient, app: FastAPI) -> None:
    await create_kb(client, "local")
    await create_kb(client, "remote", embedding={"provider": "none", "dimensions": 384})
    found = await multi(client, 422, knowledge_bases=["local", "remote"], query="x")
    assert "same embedding model" in found["detail"]
    assert "remote: none/none/384/none" in found["detail"]


async def test_an_unknown_knowledge_base_is_404(client: httpx.AsyncClient) -> None:
    await create_kb(client, "known")
    found = await multi(client, 404, knowledge_bases=["known", "unknown"], query="x")
    assert "unknown" in found["detail"]


async def test_the_list_is_required(client: httpx.AsyncClient) -> None:
    found = await multi(client, 422, knowledge_bases=[], query="x")
    assert found["errors"][0]["loc"][-1] == "knowledge_bases"


async def test_one_chunk_id_in_two_knowledge_bases_is_two_hits(client: httpx.AsyncClient) -> None:
    """Chunk ids are unique within a knowledge base: a search of both tells the two chunks
    apart, and each hit's context and each answer source is its own knowledge base's."""
    shared = "0b6f4d3e-8a51-4c8e-9d2a-6f0e2c1b7a90"
    texts = {"first": "owls hunt at night", "second": "owls sleep by day"}
    directions = {"first": [1, 0], "second": [0.9, 0.1]}
    for name, owl in texts.items():
        await create_kb(client, name, embedding={"provider": "none", "dimensions": 384})
        chunks = f"/v1/knowledge-bases/{name}/chunks"
        put = await client.put(
            f"{chunks}/{shared}",
            json={"doc_id": "owls", "text": owl, "vector": unit(directions[name])},
        )
        assert put.status_code == 201, put.text
        after = await client.post(
            f"{chunks}/bulk",
            json={
                "chunks": [{"doc_id": "owls", "text": f"after the {name} owl", "chunk_index": 1}]
            },
        )
        assert after.status_code == 200, after.text
    ids = {name: (await client.get(f"/v1/knowledge-bases/{name}")).json()["id"] for name in texts}
    found = await multi(
        client,
        knowledge_bases=["first", "second"],
        query="owls",
        vector=unit([1, 0]),
        include=["explain", "context"],
    )
    owls = [hit for hit in found["hits"] if hit["chunk_id"] == shared]
    assert [(hit["knowledge_base_id"], hit["text"]) for hit in owls] == [
        (ids["first"], texts["first"]),
        (ids["second"], texts["second"]),
    ]
    # Each found by both sides, as itself: one vector rank and one text rank each.
    assert [hit["explain"]["vector_rank"] for hit in owls] == [1, 2]
    assert all(hit["explain"]["text_rank"] is not None for hit in owls)
    assert [hit["context"]["next"]["text"] for hit in owls] == [
        "after the first owl",
        "after the second owl",
    ]
    answered = await client.post(
        "/v1/answer", json={"query": "What do owls do?", "knowledge_bases": ["first", "second"]}
    )
    assert answered.status_code == 200, answered.text
    sources = answered.json()["sources"]
    assert {(s["knowledge_base_id"], s["chunk_id"]) for s in sources} >= {
        (ids["first"], shared),
        (ids["second"], shared),
    }
