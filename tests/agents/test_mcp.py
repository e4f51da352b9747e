"""The MCP server at /mcp through the SDK's own client: tools act with the key's rights."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import httpx2
from fastapi import FastAPI
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from tests.auth.helpers import as_admin, bearer

QUERY = {"query": "annual leave days", "knowledge_bases": ["handbook"], "top_k": 5}
TOOLS = {"search_knowledge", "answer", "list_knowledge_bases", "get_document", "get_chunk_context"}


@asynccontextmanager
async def mcp_session(app: FastAPI, headers: dict[str, str]) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(
        transport=httpx2.ASGITransport(app=app), base_url="http://arbor.test", headers=headers
    )
    async with http, Client(streamable_http_client("http://arbor.test/mcp", http_client=http)) as c:
        yield c


async def rest_search(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, Any]:
    response = await client.post("/v1/search", json={**QUERY, "mode": "hybrid"}, headers=headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def without_citations(result: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in result.items() if key != "citations"}


async def test_tools_search_exactly_as_rest_for_each_key(
    app: FastAPI, client: httpx.AsyncClient, corpus: dict[str, Any]
) -> None:
    keys = corpus["keys"]
    cases = {
        "staff": bearer(keys["staff"]),
        "secret": bearer(keys["secret"]),
        "gateway as secret": bearer(keys["gateway"], X_Arbor_Principals="group:secret"),
        "gateway as nobody": bearer(keys["gateway"], X_Arbor_Principals="user:ann"),
    }
    seen: dict[str, set[str]] = {}
    for name, headers in cases.items():
        async with mcp_session(app, headers) as session:
            listed = await session.list_tools()
            assert {tool.name for tool in listed.tools} == TOOLS
            result = await session.call_tool("search_knowledge", QUERY)
        assert not result.is_error, result
        structured = result.structured_content
        assert structured is not None
        rest = await rest_search(client, headers)
        assert without_citations(structured) == rest, name
        seen[name] = {hit["doc_id"] for hit in rest["hits"]}
        # Citations name each hit's document, sections and chunk, numbered as in the text.
        citations = structured["citations"]
        assert [c["chunk_id"] for c in citations] == [hit["chunk_id"] for hit in rest["hits"]]
        for citation in citations:
            assert f"[{citation['n']}] {citation['document_title']}" in result.content[0].text
    assert corpus["secret"] in seen["secret"]
    assert corpus["secret"] in seen["gateway as secret"]
    assert corpus["secret"] not in seen["staff"]
    assert corpus["secret"] not in seen["gateway as nobody"]
    assert corpus["public"] in seen["staff"]
    leave = next(c for c in citations if c["doc_id"] == corpus["public"])
    assert leave["section_path"][-1] == "Annual leave"


async def test_tools_refuse_what_the_key_cannot_read(app: FastAPI, corpus: dict[str, Any]) -> None:
    keys = corpus["keys"]
    async with mcp_session(app, bearer(keys["staff"])) as session:
        hidden = await session.call_tool(
            "get_document", {"knowledge_base": "handbook", "document": "bonus"}
        )
        shown = await session.call_tool(
            "get_document", {"knowledge_base": "handbook", "document": "leave"}
        )
        bad = await session.call_tool("search_knowledge", {"query": "x"})
    assert hidden.is_error
    assert hidden.structured_content is not None
    assert hidden.structured_content["status"] == 404
    assert not shown.is_error
    assert shown.structured_content is not None
    assert shown.structured_content["document"]["id"] == corpus["public"]
    assert "twenty-five days" in shown.content[0].text
    assert bad.is_error
    assert bad.structured_content is not None
    assert bad.structured_content["status"] == 422
    # A key limited to `other` sees only it, and `handbook` does not exist for it.
    async with mcp_session(app, bearer(keys["limited"])) as session:
        listed = await session.call_tool("list_knowledge_bases", {})
        searched = await session.call_tool("search_knowledge", QUERY)
    assert listed.structured_content is not None
    assert [kb["name"] for kb in listed.structured_content["items"]] == ["other"]
    assert searched.is_error
    assert searched.structured_content is not None
    assert searched.structured_content["status"] == 404


async def test_chunk_context_through_mcp(
    app: FastAPI, client: httpx.AsyncClient, corpus: dict[str, Any]
) -> None:
    headers = bearer(corpus["keys"]["secret"])
    hits = (await rest_search(client, headers))["hits"]
    ids = [hit["chunk_id"] for hit in hits]
    async with mcp_session(app, headers) as session:
        result = await session.call_tool(
            "get_chunk_context", {"knowledge_base": "handbook", "chunk_ids": ids}
        )
    assert result.structured_content is not None
    assert [item["chunk_id"] for item in result.structured_content["items"]] == ids
    rest = await client.post(
        "/v1/knowledge-bases/handbook/chunks/context", json={"chunk_ids": ids}, headers=headers
    )
    assert result.structured_content == rest.json()


async def test_only_post(client: httpx.AsyncClient) -> None:
    """Stateless: no standing GET stream (it would never end), no session to DELETE."""
    for method in ("GET", "DELETE"):
        response = await client.request(
            method, "/mcp", headers={"Accept": "text/event-stream", **as_admin()}
        )
        assert response.status_code == 405
        assert response.headers["content-type"] == "application/problem+json"


async def test_mcp_needs_a_key(app: FastAPI, client: httpx.AsyncClient) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    for headers in ({}, bearer("arb_not-a-key")):
        response = await client.post("/mcp", json=body, headers=headers)
        assert response.status_code == 401
        assert response.headers["content-type"] == "application/problem+json"


async def test_answer_tool_cites_only_what_the_key_reads(
    app: FastAPI, client: httpx.AsyncClient, corpus: dict[str, Any]
) -> None:
    question = {"question": "How many days of annual leave?", "knowledge_bases": ["handbook"]}
    for key, secret_cited in (("staff", False), ("secret", True)):
        headers = bearer(corpus["keys"][key])
        async with mcp_session(app, headers) as session:
            result = await session.call_tool("answer", question)
        assert not result.is_error, result
        answered = result.structured_content
        assert answered is not None
        rest = await client.post(
            "/v1/answer",
            json={"query": question["question"], "knowledge_bases": ["handbook"]},
            headers=headers,
        )
        assert rest.status_code == 200, rest.text
        expected = rest.json()
        # The same answer and sources as REST gives this key (timings aside).
        assert answered["answer"] == expected["answer"]
        assert answered["citations"] == expected["citations"]
        assert [s["chunk_id"] for s in answered["sources"]] == [
            s["chunk_id"] for s in expected["sources"]
        ]
        cited = {source["doc_id"] for source in answered["sources"]}
        assert (corpus["secret"] in cited) is secret_cited
        assert corpus["public"] in cited
        text = result.content[0].text
        assert text.startswith(answered["answer"])
        for citation in answered["citations"]:
            assert f"[{citation['n']}] {citation['doc_title']}" in text
