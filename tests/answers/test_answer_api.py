"""The answer routes against the fake chat server: events, JSON, degradation, errors, history."""

from __future__ import annotations

import json
from collections.abc import Sequence

import httpx
import jsonschema
from fastapi import FastAPI
from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from app.answers.flow import NO_ANSWER
from app.answers.generation import RESPONSE_GENERATION_PROMPT
from app.answers.retrieval import GraphContext
from app.models import KnowledgeBase
from tests.answers.conftest import add_doc, make_kb, parse_sse
from tests.fake_openai import ChatReply, FakeChat

QUESTION = "How many days of paid leave do employees get?"
PROBLEM = "application/problem+json"


def generation_requests(fake: FakeChat) -> list[dict[str, object]]:
    return [body for body in fake.requests if body.get("stream")]


async def test_stream_sends_events_in_order(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    fake.responder = None
    fake.queue(
        json.dumps({"entities": ["paid leave"], "intent": "factual"}),
        ChatReply(
            "Employees get twenty-five days a year [2]. See also [1][42].",
            chunk_chars=4,
            delay_s=0.5,
        ),
    )
    response = await client.post(
        f"/v1/knowledge-bases/{handbook}/answer", json={"query": QUESTION, "stream": True}
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    # While the LLM sat on its first byte, comments kept the connection alive.
    assert "\n\n: keep-alive\n\n" in response.text
    events = parse_sse(response.text)
    names = [name for name, _ in events]
    assert [d["stage"] for n, d in events if n == "action"] == [
        "analysis",
        "retrieval",
        "context",
        "generation",
    ]
    assert names[:4] == ["action", "action", "action", "sources"]
    assert names[-2:] == ["action", "done"]
    assert names.index("sources") < names.index("delta") < names.index("citation")
    sources = events[3][1]["sources"]
    assert len(sources) == 2
    deltas = "".join(d["text"] for n, d in events if n == "delta")
    assert len([n for n in names if n == "delta"]) > 3  # streamed, not one block
    done = events[-1][1]
    assert deltas == done["answer"] == "Employees get twenty-five days a year [2]. See also [1]."
    assert [d["n"] for n, d in events if n == "citation"] == [2, 1]
    assert [c["n"] for c in done["citations"]] == [2, 1]
    assert done["citations"][0]["quote"] == sources[1]["text"]
    assert done["citations"][0]["chunk_id"] == sources[1]["chunk_id"]
    assert done["warnings"] == ["Removed citation markers to sources that do not exist: [42]."]
    assert done["analysis"] == {
        "question": QUESTION,
        "entities": ["paid leave"],
        "intent": "factual",
        "source": "llm",
    }
    assert done["generator"] == "llm"
    assert done["usage"]["llm_calls"] == 2
    assert done["usage"]["completion_tokens"] > 0
    retrieval = events[1][1]
    assert set(retrieval["data"]["counts"]) >= {"vector", "text", "trigram", "relevant"}
    # The generation prompt: rules in the system turn, sources as data, temperature 0.3.
    generation = generation_requests(fake)[0]
    assert generation["temperature"] == 0.3
    assert generation["max_tokens"] == 4096
    messages = generation["messages"]
    assert isinstance(messages, list)
    assert messages[0]["content"].startswith(RESPONSE_GENERATION_PROMPT[:60])
    assert "<sources>" in messages[-1]["content"]
    assert f"<question>\n{QUESTION}\n</question>" in messages[-1]["content"]


class FakeGraph:
    """A knowledge graph's retrieval seam, as app/graph will fill it."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, list[str], bool]] = []

    async def context(
        self,
        session: AsyncSession,
        *,
        knowledge_bases: Sequence[KnowledgeBase],
        question: str,
        entities: Sequence[str],
        visible: ColumnElement[bool] | None,
        principals: frozenset[str] | None,
        quick: bool,
    ) -> GraphContext:
        self.asked.append((question, list(entities), quick))
        return GraphContext(definitions=["Leave: paid time off"], facts=["Employees GET leave"])


async def test_json_answer_has_the_same_parts_and_the_graph_seam(
    app: FastAPI, client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    graph = FakeGraph()
    app.state.graph_context_provider = graph
    response = await client.post(f"/v1/knowledge-bases/{handbook}/answer", json={"query": QUESTION})
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) >= {"answer", "citations", "analysis", "actions", "sources", "generator"}
    assert body["answer"] == "Employees get twenty-five days of paid leave a year [1]."
    assert [a["stage"] for a in body["actions"]] == [
        "analysis",
        "retrieval",
        "context",
        "generation",
    ]
    assert all(a["elapsed_ms"] >= 0 for a in body["actions"])
    # The least relevant chunk (sharing only the title's word) is not a source.
    assert not any("canteen" in s["text"] for s in body["sources"])
    # The graph was asked with the analysis, and its context reached the prompt.
    assert graph.asked == [(QUESTION, ["leave"], False)]
    assert body["actions"][2]["data"]["graph_items"] == 2
    prompt = generation_requests(fake)[0]["messages"][-1]["content"]
    assert "<definitions>\nLeave: paid time off\n</definitions>" in prompt
    assert "<facts>\nEmployees GET leave\n</facts>" in prompt


async def test_nothing_relevant_answers_so_without_the_llm_and_retries_otherwise(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    response = await client.post(
        f"/v1/knowledge-bases/{handbook}/answer",
        json={"query": "quantum chromodynamics of gluons", "mode": "quick"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["answer"] == NO_ANSWER
    assert body["sources"] == []
    assert body["citations"] == []
    assert body["generator"] == "none"
    assert body["analysis"]["source"] == "skipped"
    assert fake.requests == []

    # A relevant question: the LLM answers after two 429s, retried as Retry-After said.
    fake.fail(2, status=429, retry_after="0")
    response = await client.post(
        f"/v1/knowledge-bases/{handbook}/answer", json={"query": QUESTION, "mode": "quick"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["generator"] == "llm"
    assert response.json()["warnings"] == []
    assert len(fake.requests) == 3


async def test_llm_failure_degrades_to_extractive_with_a_warning(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    fake.fail(50, status=503, retry_after="0")
    response = await client.post(f"/v1/knowledge-bases/{handbook}/answer", json={"query": QUESTION})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["generator"] == "extractive"
    assert body["analysis"]["source"] == "lexical"
    assert any("answered extractively" in w for w in body["warnings"])
    assert any("Query analysis fell back to lexical" in w for w in body["warnings"])
    assert "twenty-five days of paid leave a year [" in body["answer"]
    assert body["citations"]
    # Analysis and generation each tried 1 + 2 retries.
    assert len(fake.requests) == 6

    # An LLM that dies mid-answer: what it wrote stays, with a warning, nothing appended.
    fake.script.clear()
    fake.queue(ChatReply("Employees get twenty-five days [1] of", chunk_chars=8, break_after=3))
    body = (
        await client.post(
            f"/v1/knowledge-bases/{handbook}/answer", json={"query": QUESTION, "mode": "quick"}
        )
    ).json()
    assert body["generator"] == "llm"
    assert body["answer"] == "Employees get twenty-fiv"
    assert body["warnings"] == [
        "The LLM stopped mid-answer (chat API stream ended before the answer did); it is "
        "incomplete."
    ]

    # An LLM that answers nothing: the extractive answer instead.
    fake.queue(ChatReply(""))
    body = (
        await client.post(
            f"/v1/knowledge-bases/{handbook}/answer", json={"query": QUESTION, "mode": "quick"}
        )
    ).json()
    assert body["generator"] == "extractive"
    assert body["warnings"] == ["The LLM returned no text; answered extractively instead."]
    assert body["answer"].startswith("Employees get twenty-five days")


async def test_explicit_llm_that_fails_is_a_503(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    fake.fail(50, status=500, retry_after="0")
    url = f"/v1/knowledge-bases/{handbook}/answer"
    body = {"query": QUESTION, "generator": "llm", "mode": "quick"}
    response = await client.post(url, json=body)
    assert response.status_code == 503
    assert response.headers["content-type"] == PROBLEM
    assert response.json()["type"] == "https://arbor.dev/problems/llm-unavailable"
    assert "HTTP 500" not in response.text or "scripted" in response.text
    streamed = await client.post(url, json={**body, "stream": True})
    events = parse_sse(streamed.text)
    assert [name for name, _ in events][-1] == "error"
    assert "done" not in [name for name, _ in events]
    assert events[-1][1]["type"] == "https://arbor.dev/problems/llm-unavailable"
    assert events[-1][1]["status"] == 503


async def test_without_an_llm(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat, no_llm: None
) -> None:
    url = f"/v1/knowledge-bases/{handbook}/answer"
    # An explicit `llm` is a 422 before any stream starts: no retry would succeed.
    response = await client.post(url, json={"query": QUESTION, "generator": "llm", "stream": True})
    assert response.status_code == 422
    assert response.headers["content-type"] == PROBLEM
    assert response.json()["type"] == "https://arbor.dev/problems/llm-not-configured"

    # `auto` answers extractively, from source sentences, with valid citations.
    body = (await client.post(url, json={"query": QUESTION})).json()
    assert body["generator"] == "extractive"
    assert body["analysis"]["source"] == "lexical"
    assert body["warnings"] == []
    assert body["answer"].startswith("Employees get twenty-five days of paid leave a year [")
    cited = {c["n"] for c in body["citations"]}
    assert cited
    assert cited <= {s["n"] for s in body["sources"]}

    # A chat history: the last user turn is the question.
    messages = [
        {"role": "user", "content": "hello"},
        {"role": "assistant", "content": "Hi."},
        {"role": "user", "content": "Do part-time employees get paid leave?"},
    ]
    body = (await client.post(url, json={"messages": messages})).json()
    assert body["analysis"]["question"] == "Do part-time employees get paid leave?"
    assert "proportion" in body["answer"]
    assert fake.requests == []


async def test_chat_history_is_made_standalone(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    fake.responder = None
    standalone = "How much paid leave do part-time employees get?"
    fake.queue(
        standalone,
        json.dumps({"entities": ["part-time employees"], "intent": "factual"}),
        "In proportion to their hours [1].",
    )
    messages = [
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": "Twenty-five days a year [1]."},
        {"role": "user", "content": "And part-timers?"},
    ]
    response = await client.post(
        f"/v1/knowledge-bases/{handbook}/answer", json={"messages": messages}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["analysis"]["question"] == standalone
    assert "part-time" in body["sources"][0]["text"].lower()
    condense = fake.requests[0]["messages"][-1]["content"]
    assert "user: And part-timers?" in condense
    assert "assistant: Twenty-five days a year [1]." in condense
    generation = generation_requests(fake)[0]["messages"]
    assert [m["role"] for m in generation] == ["system", "user", "assistant", "user"]
    assert standalone in generation[-1]["content"]


async def test_bad_input_is_a_problem_before_any_stream(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    url = f"/v1/knowledge-bases/{handbook}/answer"
    cases = [
        (url, {"query": "  ", "stream": True}, 422),
        (url, {"messages": [{"role": "assistant", "content": "hi"}], "stream": True}, 422),
        (url, {"query": "q", "messages": [{"role": "user", "content": "q"}]}, 422),
        (url, {"query": "q", "filter": {"metadata.x": {"$regex": "a"}}, "stream": True}, 422),
        (url, {"query": "q", "rerank": True, "stream": True}, 422),
        (url, {"query": "q", "max_context_tokens": 5}, 422),
        ("/v1/knowledge-bases/nope/answer", {"query": "q", "stream": True}, 404),
        ("/v1/answer", {"query": "q", "knowledge_bases": [handbook, "nope"]}, 404),
    ]
    for path, body, status in cases:
        response = await client.post(path, json=body)
        assert response.status_code == status, (body, response.text)
        assert response.headers["content-type"] == PROBLEM
    assert fake.requests == []


async def test_several_knowledge_bases(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    other = await make_kb(client, "travel")
    await add_doc(client, other, "# Travel\n\nTrain tickets are refunded within thirty days.")
    response = await client.post(
        "/v1/answer",
        json={
            "query": "Are train tickets refunded, and how many days of leave?",
            "knowledge_bases": ["handbook", "travel"],
            "mode": "quick",
            "generator": "extractive",
        },
    )
    assert response.status_code == 200, response.text
    kbs = {s["knowledge_base_id"] for s in response.json()["sources"]}
    assert kbs == {handbook, other}
    assert fake.requests == []


async def test_answers_are_audited_without_their_text(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    await client.post(f"/v1/knowledge-bases/{handbook}/answer", json={"query": QUESTION})
    await client.post(
        f"/v1/knowledge-bases/{handbook}/answer", json={"query": QUESTION, "stream": True}
    )
    events = (await client.get("/v1/audit", params={"operation": "answers-knowledge_base"})).json()
    assert len(events["items"]) == 2
    for event in events["items"]:
        details = event["details"]
        assert details["question"] == QUESTION
        assert details["generator"] == "llm"
        assert details["sources"]
        assert all(s["chunk_ids"] for s in details["sources"])
        assert details["cited"] == [1]
        assert "answer" not in details
        assert event["hits"] == len(details["sources"])


async def test_every_streamed_event_matches_the_spec(
    client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    """The spec describes one event of the stream (its name and JSON `data`), as SSE-aware
    tools read a `text/event-stream` schema; answers, citations and errors all fit it."""
    spec = (await client.get("/openapi.json")).json()
    operation = spec["paths"]["/v1/knowledge-bases/{kb}/answer"]["post"]
    schema = operation["responses"]["200"]["content"]["text/event-stream"]["schema"]
    validator = jsonschema.Draft202012Validator(schema)
    url = f"/v1/knowledge-bases/{handbook}/answer"
    answered = await client.post(url, json={"query": QUESTION, "stream": True})
    fake.fail(50, status=500, retry_after="0")
    failed = await client.post(
        url, json={"query": QUESTION, "generator": "llm", "mode": "quick", "stream": True}
    )
    seen = set()
    for body in (answered.text, failed.text):
        for name, data in parse_sse(body):
            event = {"event": name, "data": json.dumps(data)}
            assert validator.is_valid(event), event
            seen.add(name)
    assert {"action", "sources", "delta", "citation", "done", "error"} <= seen
    assert not validator.is_valid({"event": "progress", "data": "{}"})
