"""Text statistics list words of the documents: only callers who read every document see them."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.search import text_statistics
from tests.auth.helpers import ADMIN_KEY, as_admin, bearer, create_key, upload

SECRET_WORD = "zanzibar"
HR = {"principals": ["group:hr"]}


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # A knowledge base of more than 5 chunks keeps statistics, so a dozen chunks suffice.
    monkeypatch.setattr(text_statistics, "MATCH_BUDGET", 5)


async def counted_corpus(client: httpx.AsyncClient, access: dict[str, Any] | None) -> str:
    """Ten public chunks and two holding SECRET_WORD under `access`, counted by a refresh."""
    response = await client.post(
        "/v1/knowledge-bases",
        json={"name": "stats", "embedding": {"provider": "none", "dimensions": 4}},
        headers=as_admin(),
    )
    assert response.status_code == 201, response.text
    kb: str = response.json()["id"]
    for i in range(10):
        await upload(client, ADMIN_KEY, kb, f"cell growth measured in sample {i}")
    restricted = {} if access is None else {"access": access}
    for i in range(2):
        await upload(client, ADMIN_KEY, kb, f"{SECRET_WORD} treaty clause {i}", **restricted)
    url = f"/v1/knowledge-bases/{kb}"
    job = (await client.post(f"{url}/text-statistics/refresh", headers=as_admin())).json()
    for _ in range(200):
        if job["status"] not in ("queued", "running"):
            break
        await asyncio.sleep(0.05)
        job = (await client.get(f"{url}/jobs/{job['id']}", headers=as_admin())).json()
    assert job["status"] == "succeeded", job
    return kb


async def statistics(client: httpx.AsyncClient, kb: str, headers: dict[str, str]) -> dict[str, Any]:
    response = await client.get(f"/v1/knowledge-bases/{kb}/text-statistics", headers=headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def lexemes(stats: dict[str, Any]) -> set[str]:
    return {entry["lexeme"] for entry in stats["most_common"]}


async def test_lexemes_are_withheld_from_a_reader_who_cannot_read_every_document(
    client: httpx.AsyncClient,
) -> None:
    kb = await counted_corpus(client, HR)
    everyone = (await create_key(client, "default", scopes=["read"]))["key"]
    ops = (await create_key(client, "default", scopes=["read"], principals=["group:ops"]))["key"]
    hr = (await create_key(client, "default", scopes=["read"], principals=["group:hr"]))["key"]
    gateway = (await create_key(client, "default", scopes=["read"], delegate=True))["key"]

    full = await statistics(client, kb, as_admin())
    assert SECRET_WORD in lexemes(full)

    for headers in (
        bearer(everyone),
        bearer(ops),
        bearer(gateway, X_Arbor_Principals="user:ann, group:ops"),
    ):
        limited = await statistics(client, kb, headers)
        assert SECRET_WORD not in lexemes(limited)
        assert limited["most_common"] == []
        assert "access lists" in limited["most_common_withheld"]
        # Counts may stay (docs/search.md): they shape scores, and name no word.
        assert limited["chunk_count"] == full["chunk_count"] == 12
        assert limited["lexemes"] == full["lexemes"]

    assert full["most_common_withheld"] is None
    assert await statistics(client, kb, bearer(hr)) == full
    delegated = await statistics(client, kb, bearer(gateway, X_Arbor_Principals="group:hr"))
    assert delegated == full


async def test_every_reader_sees_the_lexemes_when_no_document_is_restricted(
    client: httpx.AsyncClient,
) -> None:
    kb = await counted_corpus(client, None)
    reader = (await create_key(client, "default", scopes=["read"]))["key"]

    stats = await statistics(client, kb, bearer(reader))

    assert SECRET_WORD in lexemes(stats)
    assert stats["most_common_withheld"] is None
    assert stats == await statistics(client, kb, as_admin())
