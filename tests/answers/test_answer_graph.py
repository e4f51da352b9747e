"""The knowledge graph in answers: its definitions and facts reach the prompt, as far as the
caller may read the documents they came from."""

from __future__ import annotations

import httpx
import pytest
from pydantic import SecretStr

from app.config import Settings
from tests.answers.conftest import add_doc, llm_settings
from tests.auth.helpers import ADMIN_KEY, as_admin, bearer, create_key, create_project
from tests.fake_openai import FakeChat
from tests.graph.corpus import CURIE, SECRET, graph_settled, kb_body


@pytest.fixture
def settings(database_url: str, fake_llm: FakeChat) -> Settings:
    return llm_settings(
        database_url, fake_llm, admin_key=SecretStr(ADMIN_KEY), rate_limit_per_minute=0
    )


def generation_prompt(fake: FakeChat) -> str:
    [generation] = [body for body in fake.requests if body.get("stream")]
    messages = generation["messages"]
    assert isinstance(messages, list)
    return str(messages[-1]["content"])


async def test_graph_facts_reach_the_prompt_only_from_readable_documents(
    client: httpx.AsyncClient, fake: FakeChat
) -> None:
    await create_project(client, "acme")
    admin = as_admin("acme")
    created = await client.post("/v1/knowledge-bases", json=kb_body("science"), headers=admin)
    assert created.status_code == 201, created.text
    kb = created.json()["id"]
    await add_doc(client, kb, CURIE, headers=admin)
    await add_doc(client, kb, SECRET, headers=admin, access={"principals": ["group:secret"]})
    await graph_settled(client, kb, headers=admin)
    staff = (await create_key(client, "acme", scopes=["read"], principals=["group:staff"]))["key"]
    insider = (await create_key(client, "acme", scopes=["read"], principals=["group:secret"]))[
        "key"
    ]
    question = "Where did Marie Curie work, and who did Ada Lovelace meet?"

    answered = await client.post(
        f"/v1/knowledge-bases/{kb}/answer", json={"query": question}, headers=bearer(staff)
    )
    assert answered.status_code == 200, answered.text
    context = next(a for a in answered.json()["actions"] if a["stage"] == "context")
    assert context["data"]["graph_items"] > 0
    prompt = generation_prompt(fake)
    assert "<facts>" in prompt
    assert "University of Paris" in prompt
    # The secret document's entities and facts are not the staff key's to see (the question
    # names Ada Lovelace; what the document says of her is Babbage, London, Geneva).
    assert "Babbage" not in prompt
    assert "Geneva" not in prompt

    fake.requests.clear()
    answered = await client.post(
        f"/v1/knowledge-bases/{kb}/answer", json={"query": question}, headers=bearer(insider)
    )
    assert answered.status_code == 200, answered.text
    assert "Babbage" in generation_prompt(fake)
