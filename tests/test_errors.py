"""Every error is problem+json, without internals."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

PROBLEM = "application/problem+json"


async def test_unknown_route_is_problem_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/nothing-here")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM
    body = response.json()
    assert body["type"].endswith("/not-found")
    assert body["status"] == 404
    assert body["title"]
    assert "/v1/nothing-here" in body["detail"]


async def test_wrong_method_is_problem_405(client: httpx.AsyncClient) -> None:
    response = await client.put("/v1/knowledge-bases")
    assert response.status_code == 405
    assert response.headers["content-type"] == PROBLEM
    assert response.json()["type"].endswith("/method-not-allowed")


async def test_malformed_json_is_problem_422(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/knowledge-bases", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.headers["content-type"] == PROBLEM
    assert response.json()["errors"]


async def test_unhandled_error_hides_internals(app: FastAPI) -> None:
    secret = "password=hunter2 in a stack frame"

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError(secret)

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://arbor.test") as http:
        response = await http.get("/boom")
    assert response.status_code == 500
    assert response.headers["content-type"] == PROBLEM
    assert secret not in response.text
    assert "Traceback" not in response.text
    assert response.json()["type"].endswith("/internal-error")


async def test_a_form_field_nested_past_the_stack_is_422(client: httpx.AsyncClient) -> None:
    created = await client.post("/v1/knowledge-bases", json={"name": "deep"})
    assert created.status_code == 201, created.text
    deep = '{"a":' * 5000 + "1" + "}" * 5000
    for field in ("metadata", "access"):
        response = await client.post(
            "/v1/knowledge-bases/deep/documents",
            files={"file": ("a.txt", b"Some text.")},
            data={field: deep},
        )
        assert response.status_code == 422, response.text
        assert "nested deeper" in response.json()["detail"]
    listed = await client.get("/v1/knowledge-bases/deep/documents")
    assert listed.json()["items"] == []


async def test_a_deadlock_is_a_retryable_409_not_a_500() -> None:
    """Postgres rolls back one side of a deadlock (a DELETE racing ingestion, seen in QA)."""
    from sqlalchemy.exc import DBAPIError
    from starlette.requests import Request

    from app.kit.problems import _database_error

    class Deadlock(Exception):
        sqlstate = "40P01"

    scope = {
        "type": "http",
        "method": "DELETE",
        "path": "/v1/x",
        "headers": [],
        "query_string": b"",
    }
    response = await _database_error(Request(scope), DBAPIError("DELETE", {}, Deadlock()))
    assert response.status_code == 409
    assert response.headers["retry-after"] == "1"
    assert b"retryable-conflict" in response.body


KB = "/v1/knowledge-bases"
DEEP = b"[" * 3000 + b"]" * 3000


async def test_json_nested_past_the_limit_is_422_everywhere(client: httpx.AsyncClient) -> None:
    """One limit (64 levels) for every JSON input, checked before json.loads recurses."""
    assert (await client.post(KB, json={"name": "deep"})).status_code == 201
    for levels, status in ((60, 200), (65, 422), (962, 422), (5000, 422)):
        filter_ = "[" * levels + "]" * levels
        response = await client.get(f"{KB}/deep/documents", params={"filter": filter_})
        if status == 200:
            # Not a filter (an array), but parsed: the filter language answers.
            assert response.status_code == 422, response.text
            assert "nested deeper" not in response.json()["detail"]
        else:
            assert response.status_code == 422, response.text
            assert "nested deeper than 64 levels" in response.json()["detail"]
    response = await client.get(
        f"{KB}/deep/documents", params={"metadata": '{"a":' * 100 + "1" + "}" * 100}
    )
    assert response.status_code == 422
    assert "nested deeper than 64 levels" in response.json()["detail"]
    for path in (KB, f"{KB}/deep/search", f"{KB}/deep/embed"):
        response = await client.post(
            path,
            content=b'{"name": ' + DEEP + b"}",
            headers={"content-type": "application/json"},
        )
        assert response.status_code == 422, (path, response.text)
        assert response.headers["content-type"] == PROBLEM
        assert response.json()["errors"][0]["type"] == "json_invalid"


async def test_invalid_utf8_is_422_in_json_bodies_and_form_fields(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post(
        KB, content=b'{"name": "caf\xe9"}', headers={"content-type": "application/json"}
    )
    assert response.status_code == 422, response.text
    assert "not UTF-8" in response.json()["detail"]
    assert (await client.post(KB, json={"name": "forms"})).status_code == 201
    for field in ("metadata", "title"):
        response = await client.post(
            f"{KB}/forms/documents",
            files={"file": ("a.txt", b"Some text.")},
            data={field: '{"team": "caf\xe9"}'.encode("latin-1")},
        )
        assert response.status_code == 422, response.text
        assert "not UTF-8" in response.json()["detail"]
    assert (await client.get(f"{KB}/forms/documents")).json()["items"] == []


async def test_a_non_ascii_string_vector_is_422(client: httpx.AsyncClient) -> None:
    assert (await client.post(KB, json={"name": "vectors"})).status_code == 201
    chunk = {"doc_id": "d", "text": "Some text.", "vector": "\u00e9" * 512}
    response = await client.put(
        f"{KB}/vectors/chunks/00000000-0000-4000-8000-000000000001", json=chunk
    )
    assert response.status_code == 422, response.text
    assert "base64" in response.json()["detail"]
    for vector in ("\u00e9", "\u00e9" * 512):
        response = await client.post(
            f"{KB}/vectors/chunks/bulk", json={"chunks": [{**chunk, "vector": vector}]}
        )
        assert response.status_code == 422, response.text


async def test_a_cursor_nested_past_the_limit_is_422(client: httpx.AsyncClient) -> None:
    import base64

    cursor = base64.urlsafe_b64encode(b"[" * 300).decode().rstrip("=")
    response = await client.get(KB, params={"cursor": cursor})
    assert response.status_code == 422, response.text
    assert "cursor" in response.json()["detail"]
