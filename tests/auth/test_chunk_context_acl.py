"""Tree context by chunk id: a chunk the caller may not read is as missing as an unknown one."""

from __future__ import annotations

import uuid

import httpx

from tests.auth.helpers import bearer
from tests.auth.test_acl import setup_corpus


async def test_unreadable_chunks_are_missing(client: httpx.AsyncClient) -> None:
    corpus = await setup_corpus(client)
    base = f"/v1/knowledge-bases/{corpus['kb']}"
    admin = bearer(corpus["keys"]["admin"])

    async def chunk_of(doc: str) -> str:
        page = await client.get(f"{base}/documents/{doc}/chunks", headers=admin)
        return str(page.json()["items"][0]["chunk_id"])

    hidden, public = await chunk_of(corpus["hidden"][0]), await chunk_of(corpus["public"][0])
    unknown = str(uuid.uuid4())
    body = {"chunk_ids": [hidden, public, unknown, public]}
    staff = await client.post(
        f"{base}/chunks/context", json=body, headers=bearer(corpus["keys"]["staff"])
    )
    assert staff.status_code == 200, staff.text
    assert [item["chunk_id"] for item in staff.json()["items"]] == [public]
    assert staff.json()["missing"] == [hidden, unknown]
    secret = await client.post(
        f"{base}/chunks/context", json=body, headers=bearer(corpus["keys"]["secret"])
    )
    assert [item["chunk_id"] for item in secret.json()["items"]] == [hidden, public]
    assert secret.json()["missing"] == [unknown]
