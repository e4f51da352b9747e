"""Answer tests: the app talks to the fake OpenAI-compatible chat server over real HTTP."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.config import Settings
from app.search import service
from tests.fake_openai import ChatReply, FakeChat

LEAVE = (
    "# Leave\n\n"
    "Employees get twenty-five days of paid leave a year. Leave must be booked two weeks "
    "ahead in the staff portal. Unused leave days carry over until the end of March.\n\n"
    "# Canteen\n\nThe canteen opens at noon and closes at three in the afternoon."
)
PART_TIME = (
    "# Part-time staff\n\nPart-time employees get paid leave in proportion to their "
    "contracted hours. A part-time employee working three days a week gets fifteen days."
)


def llm_settings(database_url: str, fake: FakeChat, **extra: Any) -> Settings:
    return Settings(
        env="test",
        database_url=database_url,
        llm_base_url=fake.base_url,
        llm_model="fake-model",
        llm_max_retries=2,
        # Short, so that a test can see keep-alives while the LLM is slow to start.
        answer_keepalive_s=0.2,
        **extra,
    )


@pytest.fixture
def settings(database_url: str, fake_llm: FakeChat) -> Settings:
    return llm_settings(database_url, fake_llm)


@pytest.fixture(autouse=True)
def fresh_text_statistics_cache() -> Iterator[None]:
    service._text_statistics.clear()
    yield
    service._text_statistics.clear()


def default_responder(body: dict[str, Any]) -> ChatReply:
    """Analysis asks for JSON; generation streams an answer citing source 1."""
    if body.get("response_format"):
        return ChatReply(json.dumps({"entities": ["leave"], "intent": "factual"}))
    return ChatReply("Employees get twenty-five days of paid leave a year [1].")


@pytest.fixture
def fake(fake_llm: FakeChat) -> FakeChat:
    fake_llm.responder = default_responder
    return fake_llm


@pytest.fixture
async def no_llm(app: FastAPI) -> AsyncIterator[None]:
    """The same app with no LLM configured."""
    client = app.state.chat_client
    app.state.chat_client = None
    yield
    app.state.chat_client = client


async def make_kb(client: httpx.AsyncClient, name: str = "handbook", **headers: str) -> str:
    response = await client.post("/v1/knowledge-bases", json={"name": name}, headers=headers)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def add_doc(
    client: httpx.AsyncClient,
    kb: str,
    text: str,
    *,
    headers: dict[str, str] | None = None,
    **body: Any,
) -> dict[str, Any]:
    response = await client.post(
        f"/v1/knowledge-bases/{kb}/documents",
        params={"wait": "true"},
        json={"text": text, **body},
        headers=headers or {},
    )
    assert response.status_code in (200, 201, 202), response.text
    document = dict(response.json())
    assert document["status"] == "ready", document
    return document


@pytest.fixture
async def handbook(client: httpx.AsyncClient) -> str:
    kb = await make_kb(client)
    await add_doc(client, kb, LEAVE, title="Leave policy", external_id="leave")
    await add_doc(client, kb, PART_TIME, title="Part-time", external_id="part-time")
    return kb


def parse_sse(body: str) -> list[tuple[str, Any]]:
    """(event, data) pairs of a text/event-stream body; comments are skipped."""
    events: list[tuple[str, Any]] = []
    for block in body.split("\n\n"):
        name, data = None, None
        for line in block.split("\n"):
            if line.startswith("event: "):
                name = line[len("event: ") :]
            elif line.startswith("data: "):
                data = json.loads(line[len("data: ") :])
        if name is not None:
            events.append((name, data))
    return events
