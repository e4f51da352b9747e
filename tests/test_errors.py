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
