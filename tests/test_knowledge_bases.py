"""The knowledge-base API over ASGI, on a real migrated Postgres."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import pytest

PROBLEM = "application/problem+json"


async def create(client: httpx.AsyncClient, **body: object) -> httpx.Response:
    return await client.post("/v1/knowledge-bases", json=body)


async def test_create_defaults(client: httpx.AsyncClient) -> None:
    response = await create(client, name="demo")
    assert response.status_code == 201
    kb = response.json()
    assert kb["name"] == "demo"
    assert kb["title"] == "demo"
    assert kb["description"] == ""
    assert kb["embedding"]["provider"] == "local"
    assert kb["embedding"]["model"] == "all-MiniLM-L6-v2"
    assert kb["embedding"]["dimensions"] == 384
    assert kb["embedding"]["variant"] == "int8"
    assert kb["document_count"] == 0
    assert kb["chunk_count"] == 0
    assert (kb["search_modes"], kb["embeds_queries"]) == (["hybrid", "vector", "text"], True)
    assert response.headers["location"] == f"/v1/knowledge-bases/{kb['id']}"
    uuid.UUID(kb["id"])
    plain = await create(client, name="plain", embedding={"provider": "none", "dimensions": 8})
    assert plain.json()["embeds_queries"] is False


async def test_get_by_id_and_by_name(client: httpx.AsyncClient) -> None:
    kb = (await create(client, name="papers", title="Papers", description="d")).json()
    by_id = await client.get(f"/v1/knowledge-bases/{kb['id']}")
    by_name = await client.get("/v1/knowledge-bases/papers")
    assert by_id.status_code == by_name.status_code == 200
    assert by_id.json() == by_name.json() == kb


async def test_duplicate_name_is_conflict(client: httpx.AsyncClient) -> None:
    assert (await create(client, name="dup")).status_code == 201
    response = await create(client, name="dup")
    assert response.status_code == 409
    assert response.headers["content-type"] == PROBLEM
    assert response.json()["type"].endswith("/conflict")


async def test_concurrent_duplicates_make_one(client: httpx.AsyncClient) -> None:
    responses = await asyncio.gather(*(create(client, name="race") for _ in range(5)))
    codes = sorted(r.status_code for r in responses)
    assert codes.count(201) == 1
    assert set(codes) <= {201, 409}


@pytest.mark.parametrize(
    "name", ["", "Upper", "-lead", "_lead", "has space", "a" * 65, "semi;colon", "ünï"]
)
async def test_invalid_names_are_422(client: httpx.AsyncClient, name: str) -> None:
    response = await create(client, name=name)
    assert response.status_code == 422
    body = response.json()
    assert body["type"].endswith("/validation-error")
    assert body["errors"][0]["loc"] == ["body", "name"]


async def test_a_name_cannot_be_another_knowledge_base_s_id(client: httpx.AsyncClient) -> None:
    """Paths try the id first: a knowledge base named with another's id was reachable by
    name only as that other one (QA: a DELETE by name deleted the wrong knowledge base)."""
    first = (await create(client, name="first")).json()
    for name in (first["id"], first["id"].replace("-", "")):
        created = await create(client, name=name)
        assert created.status_code == 422, created.text
        assert "cannot be a UUID" in created.json()["errors"][0]["msg"]
        renamed = await client.patch(f"/v1/knowledge-bases/{first['id']}", json={"name": name})
        assert renamed.status_code == 422
    assert (await client.get("/v1/knowledge-bases/first")).json()["id"] == first["id"]


async def test_name_of_64_chars_is_fine(client: httpx.AsyncClient) -> None:
    assert (await create(client, name="a" * 64)).status_code == 201


async def test_unknown_field_is_422(client: httpx.AsyncClient) -> None:
    response = await create(client, name="x", colour="red")
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["body", "colour"]


async def test_openai_embedding_needs_model_and_dimensions(client: httpx.AsyncClient) -> None:
    bad = await create(client, name="x", embedding={"provider": "openai"})
    assert bad.status_code == 422
    ok = await create(
        client,
        name="y",
        embedding={"provider": "openai", "model": "text-embedding-3-large", "dimensions": 3072},
    )
    assert ok.status_code == 201
    embedding = ok.json()["embedding"]
    assert embedding["dimensions"] == 3072
    assert embedding["api_key_env"] == "OPENAI_API_KEY"


async def test_local_embedding_rejects_other_dimensions(client: httpx.AsyncClient) -> None:
    response = await create(client, name="x", embedding={"provider": "local", "dimensions": 768})
    assert response.status_code == 422
    assert "384" in response.json()["detail"]


async def test_unknown_text_search_language(client: httpx.AsyncClient) -> None:
    response = await create(client, name="x", text_search_language="klingon")
    assert response.status_code == 422
    assert "klingon" in response.json()["detail"]


async def test_patch_updates_text_fields(client: httpx.AsyncClient) -> None:
    kb = (await create(client, name="p")).json()
    response = await client.patch(
        "/v1/knowledge-bases/p", json={"title": "New", "description": "About"}
    )
    assert response.status_code == 200
    updated = response.json()
    assert (updated["title"], updated["description"]) == ("New", "About")
    assert updated["updated_at"] >= kb["updated_at"]


async def test_patch_rename_and_conflict(client: httpx.AsyncClient) -> None:
    await create(client, name="one")
    await create(client, name="two")
    assert (await client.patch("/v1/knowledge-bases/one", json={"name": "two"})).status_code == 409
    renamed = await client.patch("/v1/knowledge-bases/one", json={"name": "uno"})
    assert renamed.status_code == 200
    assert (await client.get("/v1/knowledge-bases/uno")).status_code == 200
    assert (await client.get("/v1/knowledge-bases/one")).status_code == 404


async def test_patch_cannot_change_embedding(client: httpx.AsyncClient) -> None:
    await create(client, name="fixed")
    response = await client.patch(
        "/v1/knowledge-bases/fixed",
        json={"embedding": {"provider": "openai", "model": "m", "dimensions": 8}},
    )
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert "create a new knowledge base" in detail
    assert "re-embed" in detail
    same = await client.patch("/v1/knowledge-bases/fixed", json={"embedding": {}})
    assert same.status_code == 200


async def test_delete_then_404(client: httpx.AsyncClient) -> None:
    await create(client, name="gone")
    assert (await client.delete("/v1/knowledge-bases/gone")).status_code == 204
    missing = await client.get("/v1/knowledge-bases/gone")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == PROBLEM
    assert (await client.delete("/v1/knowledge-bases/gone")).status_code == 404
    assert (await create(client, name="gone")).status_code == 201


async def test_concurrent_deletions_delete_once(client: httpx.AsyncClient) -> None:
    """Three DELETEs at once: one 204 and one event, the others 404."""
    await create(client, name="gone")
    deletions = await asyncio.gather(*(client.delete("/v1/knowledge-bases/gone") for _ in range(3)))
    assert sorted(r.status_code for r in deletions) == [204, 404, 404]
    done = next(r for r in deletions if r.status_code == 204)
    assert "content-type" not in done.headers
    assert done.content == b""
    events = (await client.get("/v1/events", params={"type": "knowledge_base.deleted"})).json()
    assert len(events["items"]) == 1


async def test_pagination_walks_everything_once(client: httpx.AsyncClient) -> None:
    names = [f"kb-{i:02d}" for i in range(7)]
    for name in names:
        await create(client, name=name)
    seen: list[str] = []
    cursor: str | None = None
    while True:
        params: dict[str, str | int] = {"limit": 3}
        if cursor:
            params["cursor"] = cursor
        page = (await client.get("/v1/knowledge-bases", params=params)).json()
        assert page["total"] == 7
        assert len(page["items"]) <= 3
        seen += [item["name"] for item in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == names


@pytest.mark.parametrize("cursor", ["garbage", "W10", "WyJ4IiwieSJd"])
async def test_bad_cursor_is_422(client: httpx.AsyncClient, cursor: str) -> None:
    response = await client.get("/v1/knowledge-bases", params={"cursor": cursor})
    assert response.status_code == 422
    assert response.headers["content-type"] == PROBLEM


async def test_limit_bounds(client: httpx.AsyncClient) -> None:
    assert (await client.get("/v1/knowledge-bases", params={"limit": 0})).status_code == 422
    assert (await client.get("/v1/knowledge-bases", params={"limit": 201})).status_code == 422


async def test_chunking_settings_are_validated(client: httpx.AsyncClient) -> None:
    bad = await create(client, name="c1", chunking={"strategy": "by-moon-phase"})
    assert bad.status_code == 422
    assert "strategy" in bad.json()["detail"]
    unknown = await create(client, name="c2", chunking={"max_tokenz": 100})
    assert unknown.status_code == 422
    good = await create(client, name="c3", chunking={"strategy": "sliding_window"})
    assert good.status_code == 201
    patch = await client.patch("/v1/knowledge-bases/c3", json={"chunking": {"overlap_chars": -1}})
    assert patch.status_code == 422


@pytest.mark.parametrize(
    ("chunking", "message"),
    [
        ({"max_tokens": 8192}, "exceeds the embedder's window of 256"),
        ({"overlap_tokens": 300}, "overlap_tokens must be below max_tokens (256)"),
    ],
)
async def test_chunking_the_embedder_cannot_take_is_422(
    client: httpx.AsyncClient, chunking: dict[str, int], message: str
) -> None:
    # Accepted before, then every upload failed in the background with this message.
    created = await create(client, name="w1", chunking=chunking)
    assert created.status_code == 422
    assert message in created.json()["detail"]
    assert (await create(client, name="w2")).status_code == 201
    patch = await client.patch("/v1/knowledge-bases/w2", json={"chunking": chunking})
    assert patch.status_code == 422
    assert message in patch.json()["detail"]


async def test_api_models_may_chunk_beyond_the_local_window(client: httpx.AsyncClient) -> None:
    embedding = {"provider": "openai", "model": "m", "dimensions": 8}
    created = await create(client, name="wide", embedding=embedding, chunking={"max_tokens": 1000})
    assert created.status_code == 201, created.text


@pytest.mark.parametrize(("m", "ef_construction"), [(16, 31), (10, 19), (100, 199)])
async def test_hnsw_ef_construction_below_twice_m_is_422(
    client: httpx.AsyncClient, m: int, ef_construction: int
) -> None:
    # pgvector refuses such an index: it was a 500 when the index was built.
    response = await client.post(
        "/v1/knowledge-bases",
        json={"name": "hn", "hnsw": {"m": m, "ef_construction": ef_construction}},
    )
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["errors"][0]["loc"] == ["body", "hnsw"]
    assert f"at least twice m ({m})" in problem["detail"]


async def test_hnsw_ef_construction_of_exactly_twice_m_is_fine(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/knowledge-bases", json={"name": "hn", "hnsw": {"m": 16, "ef_construction": 32}}
    )
    assert response.status_code == 201, response.text
    assert response.json()["hnsw"] == {"m": 16, "ef_construction": 32}
