"""The OpenAI-compatible chat client against a real loopback server: JSON, SSE, retries,
cancellation, settings."""

from __future__ import annotations

import asyncio
import time

import pytest
from prometheus_client.registry import REGISTRY

from app.config import Settings
from app.llm import LLMError, OpenAICompatibleChatClient, estimate_tokens, get_chat_client
from app.llm.base import ChatMessage
from tests.fake_openai import ChatReply, FakeChat

QUESTION: list[ChatMessage] = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "How many days of leave?"},
]


def client_for(fake: FakeChat, **options: object) -> OpenAICompatibleChatClient:
    defaults: dict[str, object] = {"backoff_base_s": 0.01, "backoff_max_s": 0.05}
    defaults.update(options)
    return OpenAICompatibleChatClient(fake.base_url, "sk-test", "fake-model", **defaults)  # type: ignore[arg-type]


async def test_complete_sends_the_request_and_reads_usage(fake_llm: FakeChat) -> None:
    fake_llm.queue('{"entities": ["leave"], "intent": "factual"}')
    client = client_for(fake_llm)
    try:
        result = await client.complete(QUESTION, json_mode=True, max_tokens=64)
    finally:
        await client.aclose()
    assert result.text == '{"entities": ["leave"], "intent": "factual"}'
    assert result.usage.completion_tokens == 4
    assert result.usage.prompt_tokens > 0
    body = fake_llm.requests[0]
    assert body["model"] == "fake-model"
    assert body["temperature"] == 0.3
    assert body["max_tokens"] == 64
    assert body["stream"] is False
    assert body["response_format"] == {"type": "json_object"}
    assert body["messages"] == QUESTION
    assert fake_llm.authorizations == ["Bearer sk-test"]


async def test_stream_yields_deltas_as_sse_chunks_arrive(fake_llm: FakeChat) -> None:
    text = "Twenty-five days a year [1]."
    fake_llm.queue(ChatReply(text, chunk_chars=5))
    client = client_for(fake_llm)
    try:
        stream = client.stream(QUESTION)
        deltas = [delta async for delta in stream]
    finally:
        await client.aclose()
    assert len(deltas) == 6
    assert "".join(deltas) == text
    assert stream.finish_reason == "stop"
    assert stream.usage.completion_tokens == len(text.split())
    body = fake_llm.requests[0]
    assert body["stream"] is True
    assert body["max_tokens"] == 4096
    assert body["stream_options"] == {"include_usage": True}
    assert fake_llm.streams_finished == 1


async def test_429_and_5xx_are_retried_honouring_retry_after(fake_llm: FakeChat) -> None:
    fake_llm.fail(1, status=429, retry_after="0.3")
    fake_llm.fail(1, status=503, retry_after=None)
    fake_llm.queue("finally")
    client = client_for(fake_llm)
    started = time.monotonic()
    try:
        deltas = [delta async for delta in client.stream(QUESTION)]
    finally:
        await client.aclose()
    assert "".join(deltas) == "finally"
    assert len(fake_llm.requests) == 3
    assert time.monotonic() - started >= 0.3  # waited as the server asked


async def test_retries_are_bounded(fake_llm: FakeChat) -> None:
    fake_llm.fail(10, status=500, retry_after=None)
    client = client_for(fake_llm, max_retries=2)
    try:
        with pytest.raises(LLMError) as caught:
            await client.complete(QUESTION)
    finally:
        await client.aclose()
    assert caught.value.transient is True
    assert "3 attempts" in str(caught.value)
    assert len(fake_llm.requests) == 3


async def test_a_rejected_request_is_not_retried(fake_llm: FakeChat) -> None:
    fake_llm.fail(3, status=400, retry_after=None)
    client = client_for(fake_llm)
    try:
        with pytest.raises(LLMError) as caught:
            await client.complete(QUESTION)
    finally:
        await client.aclose()
    assert caught.value.transient is False
    assert "HTTP 400" in str(caught.value)
    assert len(fake_llm.requests) == 1


async def test_a_retry_after_beyond_the_limit_fails_at_once(fake_llm: FakeChat) -> None:
    fake_llm.fail(1, status=429, retry_after="120")
    client = client_for(fake_llm, max_retry_after_s=5.0)
    try:
        with pytest.raises(LLMError, match="wait 120 s"):
            await client.complete(QUESTION)
    finally:
        await client.aclose()
    assert len(fake_llm.requests) == 1


async def test_an_unreachable_server_is_an_llm_error() -> None:
    client = OpenAICompatibleChatClient(
        "http://127.0.0.1:9/v1", None, "m", max_retries=1, backoff_base_s=0.01
    )
    try:
        with pytest.raises(LLMError, match="connection failed"):
            await client.complete(QUESTION)
    finally:
        await client.aclose()


@pytest.mark.parametrize("how", ["aclose", "cancel"])
async def test_stopping_a_stream_closes_the_upstream_request(fake_llm: FakeChat, how: str) -> None:
    fake_llm.queue(ChatReply("word " * 200, chunk_chars=5, chunk_delay_s=0.05))
    cancelled = {"provider": "openai-compatible", "model": "fake-model", "outcome": "cancelled"}
    before = REGISTRY.get_sample_value("arbor_llm_calls_total", cancelled) or 0.0
    client = client_for(fake_llm)
    first = asyncio.Event()
    stream = client.stream(QUESTION)

    async def consume() -> None:
        async for _delta in stream:
            first.set()

    task = asyncio.create_task(consume())
    try:
        await asyncio.wait_for(first.wait(), 5)
        if how == "cancel":
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        else:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await stream.aclose()
        disconnected = await asyncio.to_thread(fake_llm.wait_for, lambda: fake_llm.disconnects)
    finally:
        await client.aclose()
    assert disconnected
    assert fake_llm.streams_finished == 0
    # Counted once, as stopped by its caller, not as a failure of the LLM.
    assert REGISTRY.get_sample_value("arbor_llm_calls_total", cancelled) == before + 1


def test_settings_build_the_client_and_read_the_key_from_the_named_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert get_chat_client(Settings(env="test")) is None
    monkeypatch.setenv("MY_LLM_KEY", "sk-from-env")
    settings = Settings(
        env="test",
        llm_base_url="http://127.0.0.1:1/v1",
        llm_model="llama3.1",
        llm_api_key_env="MY_LLM_KEY",
        llm_max_tokens=512,
    )
    client = get_chat_client(settings)
    assert isinstance(client, OpenAICompatibleChatClient)
    assert client.model == "llama3.1"
    assert client.max_tokens == 512
    assert client._client.headers["authorization"] == "Bearer sk-from-env"
    asyncio.run(client.aclose())
    with pytest.raises(ValueError, match="ARBOR_LLM_MODEL"):
        get_chat_client(Settings(env="test", llm_base_url="http://127.0.0.1:1/v1"))


def test_token_estimate_is_conservative() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("a b c d e f") == 6  # words beat characters / 4
    assert estimate_tokens("x" * 400) == 100


async def test_a_stream_cut_off_mid_answer_is_an_error(fake_llm: FakeChat) -> None:
    fake_llm.queue(ChatReply("one two three four five six", chunk_chars=4, break_after=2))
    client = client_for(fake_llm)
    received: list[str] = []

    async def collect() -> None:
        async for delta in client.stream(QUESTION):
            received.append(delta)

    try:
        with pytest.raises(LLMError, match="ended before the answer did"):
            await collect()
    finally:
        await client.aclose()
    assert "".join(received) == "one two "
