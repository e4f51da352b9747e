"""Traces captured in memory; request ids in headers and on every log line; JSON logs."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import httpx
import pytest
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind
from starlette.types import Receive, Scope, Send

from app.observability import tracing
from app.observability.logs import ContextFilter, JsonFormatter
from app.observability.middleware import ObservabilityMiddleware
from tests.operations.helpers import knowledge_base


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    tracing.install(SimpleSpanProcessor(exporter))
    try:
        yield exporter
    finally:
        tracing.uninstall()


def test_tracing_is_off_unless_otel_variables_ask() -> None:
    assert tracing.requested({}) is None
    assert tracing.requested({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}) == "otlp"
    assert tracing.requested({"OTEL_TRACES_EXPORTER": "otlp"}) == "otlp"
    assert tracing.requested({"OTEL_TRACES_EXPORTER": "none"}) is None
    assert (
        tracing.requested(
            {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SDK_DISABLED": "true"}
        )
        is None
    )
    assert not tracing.enabled()


async def test_spans_per_request_stage_and_statement(
    client: httpx.AsyncClient, spans: InMemorySpanExporter
) -> None:
    kb = await knowledge_base(client, "traces", {"a": "# Leave\n\nTwenty-five days a year."})
    spans.clear()
    parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    response = await client.post(
        f"/v1/knowledge-bases/{kb}/search",
        json={"query": "leave zebrafish", "mode": "text"},
        headers={"traceparent": parent},
    )
    assert response.status_code == 200
    finished = spans.get_finished_spans()
    servers = [s for s in finished if s.kind is SpanKind.SERVER]
    assert [s.name for s in servers] == ["POST /v1/knowledge-bases/{kb}/search"]
    server = servers[0]
    assert server.attributes is not None
    assert server.attributes["http.response.status_code"] == 200
    assert server.attributes["arbor.request_id"] == response.headers["x-request-id"]
    # The caller's trace continues.
    assert format(server.context.trace_id, "032x") == "0af7651916cd43dd8448eb211c80319c"
    # The job loops poll beside the request, each in a trace of its own.
    statements = [
        s
        for s in finished
        if s.name.startswith("db ") and s.context.trace_id == server.context.trace_id
    ]
    assert len(statements) >= 2
    for statement in statements:
        assert statement.kind is SpanKind.CLIENT
        assert statement.parent is not None
        assert statement.attributes is not None
        # Bound values are not recorded: the query text travels as a parameter.
        assert "zebrafish" not in str(statement.attributes["db.statement"])

    spans.clear()
    upload = await client.post(
        f"/v1/knowledge-bases/{kb}/documents",
        params={"wait": "true"},
        json={"text": "# Pension\n\nPaid monthly.", "external_id": "b"},
    )
    assert upload.json()["status"] == "ready"
    names = {s.name for s in spans.get_finished_spans()}
    assert {"ingest.parse", "ingest.chunk", "ingest.embed", "ingest.store"} <= names


async def test_request_id_is_answered_and_kept_when_plain(client: httpx.AsyncClient) -> None:
    generated = await client.get("/healthz")
    assert len(generated.headers["x-request-id"]) == 32
    kept = await client.get("/healthz", headers={"X-Request-ID": "req-123.abc"})
    assert kept.headers["x-request-id"] == "req-123.abc"
    replaced = await client.get("/healthz", headers={"X-Request-ID": "bad id\twith spaces"})
    assert replaced.headers["x-request-id"] != "bad id\twith spaces"
    assert len(replaced.headers["x-request-id"]) == 32


async def test_every_log_line_of_a_request_carries_its_id_as_json() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter())
    log = logging.getLogger("arbor.test.request")
    log.addHandler(handler)
    log.setLevel(logging.INFO)

    async def endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        log.info("first line")
        log.warning("second line: %s", "with an argument")
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    transport = httpx.ASGITransport(app=ObservabilityMiddleware(endpoint))
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            response = await http.get("/anything")
    finally:
        log.removeHandler(handler)
    log.info("outside any request")  # not captured: the handler is gone
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [line["message"] for line in lines] == [
        "first line",
        "second line: with an argument",
    ]
    assert {line["request_id"] for line in lines} == {response.headers["x-request-id"]}
    assert lines[1]["level"] == "warning"
    assert lines[0]["logger"] == "arbor.test.request"


def test_json_lines_carry_no_key_secret() -> None:
    from app.auth import keys

    key, prefix = keys.generate()
    record = logging.LogRecord("arbor", logging.WARNING, __file__, 1, "first key: %s", (key,), None)
    ContextFilter().filter(record)
    line = JsonFormatter().format(record)
    assert key not in line
    assert json.loads(line)["message"] == f"first key: {prefix}..."
