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
