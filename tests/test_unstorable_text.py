"""Text Postgres cannot store (NUL, lone surrogates) is a 422 naming the field, never a 500."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

import httpx
import pytest

from app.kit.strings import json_problem, unstorable

KB = "/v1/knowledge-bases/kb"
PROBLEM = "application/problem+json"
JSON = {"content-type": "application/json"}


@pytest.fixture
async def kb(client: httpx.AsyncClient) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).status_code == 201


async def send(client: httpx.AsyncClient, method: str, url: str, body: str) -> httpx.Response:
    # Written by hand: "\ud800" must reach the server as JSON's escape, which httpx would not send.
    return await client.request(method, url, content=body.encode(), headers=JSON)


@pytest.mark.parametrize(
    ("method", "url", "body", "loc"),
    [
        ("POST", f"{KB}/search", r'{"query": "a\u0000b"}', ["body", "query"]),
        (
            "POST",
            "/v1/search",
            r'{"query": "x", "knowledge_bases": ["kb\u0000"]}',
            ["body", "knowledge_bases", 0],
        ),
        ("POST", "/v1/knowledge-bases", r'{"name": "k", "title": "a\u0000b"}', ["body", "title"]),
        ("PATCH", KB, r'{"description": "x\u0000"}', ["body", "description"]),
        ("PATCH", KB, r'{"chunking": {"strategy\u0000": 1}}', ["body", "chunking"]),
        (
            "POST",
            "/v1/projects",
            r'{"name": "p", "description": "\u0000"}',
            ["body", "description"],
        ),
        ("PUT", f"{KB}/chunks/{'0' * 32}", r'{"text": "a\u0000", "doc_id": "d"}', ["body", "text"]),
        (
            "PUT",
            f"{KB}/chunks/{'0' * 32}",
            r'{"text": "a", "doc_id": "d", "section_titles": ["\ud800"]}',
            ["body", "section_titles"],
        ),
    ],
)
async def test_unstorable_body_fields_are_422(
    client: httpx.AsyncClient, kb: None, method: str, url: str, body: str, loc: list[Any]
) -> None:
    response = await send(client, method, url, body)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["type"].endswith("/validation-error")
    assert problem["errors"][0]["loc"] == loc
    assert problem["errors"][0]["type"] in ("text_unstorable", "json_unstorable")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"metadata": {"a": {"b": ["x\u0000"]}}}, "metadata"),
        ({"metadata": {"k\u0000": 1}}, "metadata"),
        ({"title": "a\u0000b"}, "title"),
        ({"source_uri": "file://\u0000"}, "source_uri"),
        ({"external_id": "e\u0000"}, "external_id"),
        ({"access": {"principals": ["group:\u0000"]}}, "access"),
    ],
)
async def test_unstorable_upload_fields_are_422(
    client: httpx.AsyncClient, kb: None, body: dict[str, Any], field: str
) -> None:
    json_upload = await client.post(f"{KB}/documents", json={"text": "Some text.", **body})
    batch = await client.post(
        f"{KB}/documents/batch", json={"documents": [{"text": "Fine."}, {"text": "x", **body}]}
    )
    form = {
        name: json.dumps(value) if isinstance(value, dict) else value
        for name, value in body.items()
    }
    multipart = await client.post(
        f"{KB}/documents", files={"file": ("a.txt", b"Some text.")}, data=form
    )
    for response in (json_upload, batch, multipart):
        assert response.status_code == 422, response.text
        assert response.json()["type"].endswith("/validation-error")
        assert field in response.json()["detail"]
    assert (await client.get(f"{KB}/documents")).json()["total"] == 0


async def test_nul_in_json_text_is_an_unprocessable_document(
    client: httpx.AsyncClient, kb: None
) -> None:
    # Before: detection called it binary of an unknown type (415), unlike a .txt with NUL.
    response = await client.post(f"{KB}/documents", json={"text": "a\u0000b"})
    assert response.status_code == 422
    assert response.json()["type"].endswith("/unprocessable-document")
    assert "NUL" in response.json()["detail"]


@pytest.mark.parametrize(
    "path",
    [
        "/v1/knowledge-bases/%00",
        "/v1/knowledge-bases/kb/documents/%00",
        "/v1/knowledge-bases/kb/documents/a%00b/tree",
        "/v1/projects/%00",
    ],
)
async def test_nul_in_a_path_is_404(client: httpx.AsyncClient, kb: None, path: str) -> None:
    response = await client.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM
    assert response.json()["type"].endswith("/not-found")
    assert response.json()["instance"] == unquote(path)  # the request path, as every problem


async def test_nul_in_a_search_path_is_404(client: httpx.AsyncClient, kb: None) -> None:
    response = await client.post("/v1/knowledge-bases/k%00b/search", json={"query": "x"})
    assert response.status_code == 404


@pytest.mark.parametrize(
    "spec",
    [
        r'{"doc_title": "\ud800"}',
        r'{"doc_title": {"$in": ["ok", "\udfff"]}}',
        r'{"doc_title": {"$gt": "\ud800"}}',
        r'{"doc_title": {"$contains": "\ud800"}}',
        r'{"metadata.year": "\ud800"}',
        r'{"metadata.year": {"$in": ["\ud800"]}}',
        r'{"metadata.year": {"$contains": "\ud800"}}',
    ],
)
async def test_lone_surrogates_in_filter_values_are_422(
    client: httpx.AsyncClient, kb: None, spec: str
) -> None:
    response = await send(client, "POST", f"{KB}/search", f'{{"query": "x", "filter": {spec}}}')
    assert response.status_code == 422, response.text
    assert "surrogate" in response.json()["detail"]
    assert response.json()["errors"][0]["type"] == "filter_invalid"


@pytest.mark.parametrize("key", [r"\ud800", r"metadata.\ud800"])
async def test_a_problem_that_echoes_a_lone_surrogate_still_renders(
    client: httpx.AsyncClient, kb: None, key: str
) -> None:
    response = await send(
        client, "POST", f"{KB}/search", f'{{"query": "x", "filter": {{"{key}": 1}}}}'
    )
    assert response.status_code == 422
    response.content.decode("utf-8")  # valid UTF-8: the surrogate is escaped in the JSON
    assert response.json()["errors"][0]["loc"][0] == key.replace(r"\ud800", "\ud800")


async def test_text_the_models_miss_is_422_not_500(client: httpx.AsyncClient, kb: None) -> None:
    # No request model covers this query parameter: the database refuses it, the handler answers.
    response = await client.get("/v1/audit", params={"operation": "a\u0000b"})
    assert response.status_code == 422
    assert response.json()["type"].endswith("/validation-error")
    assert "NUL" in response.json()["detail"]


def test_what_cannot_be_stored() -> None:
    assert unstorable("plain, accentué, \U0001f600") is None
    assert unstorable("a\x00") is not None
    assert unstorable("\ud800") is not None
    assert json_problem({"a": [1, 2.5, {"b": "ok"}]}) is None
    assert (
        json_problem({"a": [{"b": "x\x00"}]})
        == "the value at a[0].b contains a NUL character (\\u0000)"
    )
    assert json_problem({"a": {"\udc00": 1}}) == "a key at a contains a lone UTF-16 surrogate"
    assert json_problem({"a": float("nan")}) is not None
