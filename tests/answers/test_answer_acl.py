"""Answers see what the caller's search sees: no unreadable text reaches prompt, sources or
answer, and a key limited to some knowledge bases answers from those only."""

from __future__ import annotations

import httpx
import pytest
from pydantic import SecretStr

from app.config import Settings
from tests.answers.conftest import add_doc, llm_settings, make_kb, parse_sse
from tests.auth.helpers import ADMIN_KEY, as_admin, bearer, create_key, create_project
from tests.fake_openai import FakeChat

SECRET = "The launch code for project Falcon is PINEAPPLE-42."
PUBLIC = "Project Falcon launches in spring; its launch code is kept by the security team."
QUESTION = "What is the launch code for project Falcon?"


@pytest.fixture
def settings(database_url: str, fake_llm: FakeChat) -> Settings:
    return llm_settings(
        database_url, fake_llm, admin_key=SecretStr(ADMIN_KEY), rate_limit_per_minute=0
    )


async def test_unreadable_documents_never_reach_the_llm_or_the_answer(
    client: httpx.AsyncClient, fake: FakeChat
) -> None:
    await create_project(client, "acme")
    admin = as_admin("acme")
    kb = await make_kb(client, "falcon", **admin)
    other = await make_kb(client, "other", **admin)
    await add_doc(client, kb, SECRET, headers=admin, access={"principals": ["group:secret"]})
    await add_doc(client, kb, PUBLIC, headers=admin)
    await add_doc(client, other, f"Copy: {SECRET}", headers=admin)
    staff = (await create_key(client, "acme", scopes=["read"], principals=["group:staff"]))["key"]
    limited = (
        await create_key(
            client, "acme", scopes=["read"], principals=["group:secret"], knowledge_bases=[other]
        )
    )["key"]
    secret = (await create_key(client, "acme", scopes=["read"], principals=["group:secret"]))["key"]

    for stream in (False, True):
        response = await client.post(
            f"/v1/knowledge-bases/{kb}/answer",
            json={"query": QUESTION, "stream": stream},
            headers=bearer(staff),
        )
        assert response.status_code == 200, response.text
        assert "PINEAPPLE" not in response.text
        body = parse_sse(response.text)[-1][1] if stream else response.json()
        assert [s["text"] for s in body["sources"]] == [PUBLIC]
    assert "PINEAPPLE" not in fake.prompt_text()
    assert fake.requests  # the LLM was asked, with the public source only

    # A key limited to `other` cannot reach `falcon`, by path or in a list.
    assert (
        await client.post(
            f"/v1/knowledge-bases/{kb}/answer", json={"query": QUESTION}, headers=bearer(limited)
        )
    ).status_code == 404
    multi = await client.post(
        "/v1/answer",
        json={"query": QUESTION, "knowledge_bases": [other, kb]},
        headers=bearer(limited),
    )
    assert multi.status_code == 404
    only_other = await client.post(
        "/v1/answer", json={"query": QUESTION, "knowledge_bases": [other]}, headers=bearer(limited)
    )
    assert {s["knowledge_base_id"] for s in only_other.json()["sources"]} == {other}

    # The same question from a key that may read the secret finds it: the check can fail.
    allowed = await client.post(
        f"/v1/knowledge-bases/{kb}/answer",
        json={"query": QUESTION, "generator": "extractive"},
        headers=bearer(secret),
    )
    assert "PINEAPPLE-42" in allowed.json()["answer"]
