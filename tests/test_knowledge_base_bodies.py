"""Knowledge-base bodies: JSON or 415, and the 422 shape README.md ("Errors") promises."""

from __future__ import annotations

import httpx
import pytest

from app.kit.errors import PROBLEM_BASE

PROBLEM = "application/problem+json"


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        (b'{"name": "plain"}', "text/plain"),
        (b"name=form", "application/x-www-form-urlencoded"),
        (b'{"name": "untyped"}', None),
    ],
)
async def test_create_and_update_refuse_a_body_that_is_not_json_with_415(
    client: httpx.AsyncClient, content: bytes, content_type: str | None
) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).status_code == 201
    headers = {} if content_type is None else {"content-type": content_type}
    for method, url in (("POST", "/v1/knowledge-bases"), ("PATCH", "/v1/knowledge-bases/kb")):
        response = await client.request(method, url, content=content, headers=headers)
        assert response.status_code == 415, (method, response.text)
        assert response.headers["content-type"] == PROBLEM
        assert response.json()["type"] == PROBLEM_BASE + "unsupported-media-type"
    names = [kb["name"] for kb in (await client.get("/v1/knowledge-bases")).json()["items"]]
    assert names == ["kb"]


async def test_json_types_fastapi_reads_are_still_accepted(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/v1/knowledge-bases",
        content=b'{"name": "kb"}',
        headers={"content-type": "application/json; charset=utf-8"},
    )
    assert created.status_code == 201, created.text
    patched = await client.patch(
        "/v1/knowledge-bases/kb",
        content=b'{"title": "Merged"}',
        headers={"content-type": "application/merge-patch+json"},
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["title"] == "Merged"


async def test_a_422_lists_errors_as_loc_msg_type(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/knowledge-bases", json={"name": ""})

    assert response.status_code == 422
    problem = response.json()
    assert problem["type"] == PROBLEM_BASE + "validation-error"
    assert problem["instance"] == "/v1/knowledge-bases"
    assert [sorted(error) for error in problem["errors"]] == [["loc", "msg", "type"]]
    assert problem["errors"][0]["loc"] == ["body", "name"]
    assert problem["errors"][0]["type"] == "string_too_short"
