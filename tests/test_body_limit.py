"""JSON bodies that FastAPI reads have a size limit; routes that stream their body keep theirs."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest

from app.config import Settings

LIMIT = 4096


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(env="test", database_url=database_url, max_json_body_bytes=LIMIT)


def assert_too_large(response: httpx.Response) -> None:
    assert response.status_code == 413, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["type"].endswith("/payload-too-large")
    assert f"limit of {LIMIT} bytes" in problem["detail"]


async def test_a_declared_body_over_the_limit_is_413(client: httpx.AsyncClient) -> None:
    body = {"name": "big", "description": "x" * 2 * LIMIT}
    assert_too_large(await client.post("/v1/knowledge-bases", json=body))
    listed = await client.get("/v1/knowledge-bases")
    assert [kb["name"] for kb in listed.json()["items"]] == []


async def test_a_streamed_body_is_cut_off_at_the_limit(client: httpx.AsyncClient) -> None:
    sent: list[int] = []

    async def pieces() -> AsyncIterator[bytes]:
        # No Content-Length: the count of what arrives decides.
        yield b'{"name": "streamed", "description": "'
        for _ in range(8):
            sent.append(1)
            yield b"y" * 1024
        yield b'"}'

    response = await client.post(
        "/v1/knowledge-bases", content=pieces(), headers={"content-type": "application/json"}
    )
    assert "content-length" not in response.request.headers
    assert_too_large(response)


async def test_under_the_limit_is_accepted(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/knowledge-bases", json={"name": "small", "description": "z" * (LIMIT // 2)}
    )
    assert response.status_code == 201, response.text


async def test_uploads_keep_their_own_larger_limit(client: httpx.AsyncClient) -> None:
    created = await client.post("/v1/knowledge-bases", json={"name": "docs"})
    assert created.status_code == 201, created.text
    text = "A sentence about rivers. " * (3 * LIMIT // 25)
    body = json.dumps({"text": text, "title": "long"}).encode()
    assert len(body) > LIMIT
    response = await client.post(
        "/v1/knowledge-bases/docs/documents",
        content=body,
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 202, response.text
