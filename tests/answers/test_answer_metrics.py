"""LLM calls in `GET /metrics` after answers against the fake chat server."""

from __future__ import annotations

import httpx

from tests.answers.conftest import default_responder
from tests.fake_openai import FakeChat
from tests.operations.helpers import samples, value

QUESTION = "How many days of paid leave do employees get?"
# What the operator configured (tests/answers/conftest.py): the only model label there is.
LLM = {"provider": "openai-compatible", "model": "fake-model"}


async def scrape(client: httpx.AsyncClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = await client.get("/metrics")
    assert response.status_code == 200, response.text
    assert QUESTION not in response.text
    assert "leave" not in response.text.lower()
    return samples(response.text)


async def test_answers_count_llm_calls_tokens_and_time(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    before = await scrape(client)
    # Analysis (one JSON completion) and generation (streamed, usage in its last chunk).
    answered = await client.post(
        f"/v1/knowledge-bases/{handbook}/answer", json={"query": QUESTION, "stream": True}
    )
    assert answered.status_code == 200, answered.text
    assert len(fake.requests) == 2
    after = await scrape(client)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("arbor_llm_calls_total", **LLM, outcome="ok") == 2
    assert delta("arbor_llm_calls_total", **LLM, outcome="error") == 0
    assert delta("arbor_llm_call_duration_seconds_count", **LLM) == 2
    assert delta("arbor_llm_call_duration_seconds_sum", **LLM) > 0
    # The fake counts a word as a token: what it reported is what is counted.
    prompt_words = sum(
        len(str(message["content"]).split())
        for body in fake.requests
        for message in body["messages"]  # type: ignore[attr-defined]
    )
    assert delta("arbor_llm_tokens_total", **LLM, direction="input") == prompt_words
    # Both replies of the default responder: the analysis JSON and the answer.
    replies = [default_responder(body).text for body in fake.requests]
    output_words = sum(len(reply.split()) for reply in replies)
    assert output_words > 0
    assert delta("arbor_llm_tokens_total", **LLM, direction="output") == output_words


async def test_a_failing_llm_counts_one_errored_call_per_call_not_per_retry(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    before = await scrape(client)
    fake.fail(50, status=503, retry_after="0")
    answered = await client.post(f"/v1/knowledge-bases/{handbook}/answer", json={"query": QUESTION})
    assert answered.status_code == 200, answered.text
    assert answered.json()["generator"] == "extractive"
    # Analysis and generation, each 1 + 2 retries.
    assert len(fake.requests) == 6
    after = await scrape(client)
    assert (
        value(after, "arbor_llm_calls_total", **LLM, outcome="error")
        - value(before, "arbor_llm_calls_total", **LLM, outcome="error")
        == 2
    )
    assert value(after, "arbor_llm_calls_total", **LLM, outcome="ok") == value(
        before, "arbor_llm_calls_total", **LLM, outcome="ok"
    )
