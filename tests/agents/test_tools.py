"""Function calling: the tools as OpenAI definitions, and calls made with the caller's rights."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from app.tools.schemas import SearchKnowledgeArgs
from tests.agents.test_mcp import mcp_session
from tests.auth.helpers import as_admin, bearer


async def test_definitions_are_the_argument_models(
    client: httpx.AsyncClient, corpus: dict[str, Any]
) -> None:
    response = await client.get("/v1/tools", headers=bearer(corpus["keys"]["staff"]))
    assert response.status_code == 200
    tools = {tool["function"]["name"]: tool for tool in response.json()["tools"]}
    assert set(tools) == {
        "search_knowledge",
        "answer",
        "list_knowledge_bases",
        "get_document",
        "get_chunk_context",
    }
    search = tools["search_knowledge"]
    assert search["type"] == "function"
    expected = SearchKnowledgeArgs.model_json_schema()
    assert search["function"]["parameters"]["properties"] == expected["properties"]
    assert search["function"]["parameters"]["required"] == ["query", "knowledge_bases"]


async def test_call_returns_what_rest_returns(
    client: httpx.AsyncClient, corpus: dict[str, Any]
) -> None:
    arguments = {"query": "annual leave", "knowledge_bases": ["handbook"], "top_k": 3}
    for key in ("staff", "secret"):
        headers = bearer(corpus["keys"][key])
        called = await client.post("/v1/tools/search_knowledge", json=arguments, headers=headers)
        assert called.status_code == 200, called.text
        body = called.json()
        rest = await client.post("/v1/search", json=arguments, headers=headers)
        result = {k: v for k, v in body["result"].items() if k != "citations"}
        assert result == rest.json()
        assert len(body["result"]["citations"]) == len(rest.json()["hits"])
        assert body["text"].startswith("[1] ")
        docs = {hit["doc_id"] for hit in rest.json()["hits"]}
        assert (corpus["secret"] in docs) is (key == "secret")


async def test_call_errors(client: httpx.AsyncClient, corpus: dict[str, Any]) -> None:
    staff = bearer(corpus["keys"]["staff"])
    unknown = await client.post("/v1/tools/nope", json={}, headers=staff)
    assert unknown.status_code == 404
    assert unknown.headers["content-type"] == "application/problem+json"
    invalid = await client.post("/v1/tools/search_knowledge", json={"top_k": 0}, headers=staff)
    assert invalid.status_code == 422
    assert {tuple(e["loc"]) for e in invalid.json()["errors"]} >= {("body", "query")}
    hidden = await client.post(
        "/v1/tools/get_document",
        json={"knowledge_base": "handbook", "document": "bonus"},
        headers=staff,
    )
    assert hidden.status_code == 404
    assert hidden.json()["type"].endswith("/not-found")
    anonymous = await client.post("/v1/tools/list_knowledge_bases", json={})
    assert anonymous.status_code == 401


async def test_tool_calls_are_audited_once_as_the_rest_call(
    app: FastAPI, client: httpx.AsyncClient, corpus: dict[str, Any]
) -> None:
    staff = bearer(corpus["keys"]["staff"])
    arguments = {"query": "annual leave", "knowledge_bases": ["handbook"], "top_k": 3}
    called = await client.post("/v1/tools/search_knowledge", json=arguments, headers=staff)
    async with mcp_session(app, staff) as session:
        await session.call_tool("search_knowledge", arguments)
    dify = {"knowledge_id": "handbook", "query": "leave", "retrieval_setting": {"top_k": 1}}
    await client.post("/compat/dify/retrieval", json=dify, headers=staff)
    events = (await client.get("/v1/audit", headers=as_admin("acme"))).json()["items"]
    operations = sorted(event["operation"] for event in events if event["method"] == "POST")
    assert "tools-call" not in operations
    assert "unknown" not in operations
    assert "compat-dify_retrieval" not in operations
    searches = [event for event in events if event["operation"] == "search-multi"]
    assert len(searches) == 2
    assert all(event["hits"] == len(called.json()["result"]["hits"]) for event in searches)
    assert len([e for e in events if e["operation"] == "search-knowledge_base"]) == 1
