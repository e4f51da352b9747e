"""OpenTelemetry traces: off unless the standard OTEL_* variables ask for them.

On when `OTEL_TRACES_EXPORTER` names `otlp` or `console`, or an OTLP endpoint is set
(`OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); `OTEL_SDK_DISABLED=true`
turns them off. The exporter reads its own OTEL_EXPORTER_OTLP_* settings (headers, protocol,
timeout). Off, `span()` costs one attribute check: no tracer, no context switch.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import propagate, trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter
from opentelemetry.trace import Span, SpanKind, Status, StatusCode
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

logger = logging.getLogger(__name__)

TRACER_NAME = "arbor"
MAX_STATEMENT_CHARS = 2000
_tracer: trace.Tracer | None = None
_provider: TracerProvider | None = None


def requested(environ: Mapping[str, str] | None = None) -> str | None:
    """The exporter the environment asks for (`otlp`, `console`), or None: tracing off."""
    env = os.environ if environ is None else environ
    if env.get("OTEL_SDK_DISABLED", "").lower() == "true":
        return None
    exporter = env.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporter in ("otlp", "console"):
        return exporter
    if exporter == "none":
        return None
    if env.get("OTEL_EXPORTER_OTLP_ENDPOINT") or env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"):
        return "otlp"
    return None


def configure_from_environment() -> bool:
    """Turn tracing on when the environment asks (once per process); True when on."""
    if _tracer is not None:
        return True
    exporter = requested()
    if exporter is None:
        return False
    if exporter == "console":
        processor: SpanProcessor = BatchSpanProcessor(ConsoleSpanExporter())
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        processor = BatchSpanProcessor(OTLPSpanExporter())
    install(processor)
    logger.info("tracing on: %s exporter", exporter)
    return True


def install(processor: SpanProcessor) -> TracerProvider:
    """Trace into `processor` from now on (tests pass an in-memory exporter's)."""
    global _tracer, _provider
    service = os.environ.get("OTEL_SERVICE_NAME", "arbor")
    _provider = TracerProvider(resource=Resource.create({"service.name": service}))
    _provider.add_span_processor(processor)
    _tracer = _provider.get_tracer(TRACER_NAME)
    return _provider


def uninstall() -> None:
    """Tracing off again (tests)."""
    global _tracer, _provider
    if _provider is not None:
        _provider.shutdown()
    _tracer = _provider = None


def enabled() -> bool:
    return _tracer is not None


@contextmanager
def span(
    name: str, attributes: Mapping[str, Any] | None = None, *, kind: SpanKind = SpanKind.INTERNAL
) -> Iterator[Span | None]:
    """A child span of the current one, or nothing when tracing is off."""
    if _tracer is None:
        yield None
        return
    with _tracer.start_as_current_span(name, kind=kind, attributes=dict(attributes or {})) as s:
        yield s


@contextmanager
def request_span(method: str, headers: Mapping[str, str]) -> Iterator[Span | None]:
    """The server span of one request, continuing the caller's trace (`traceparent`)."""
    if _tracer is None:
        yield None
        return
    parent = propagate.extract(headers)
    token = otel_context.attach(parent)
    try:
        with _tracer.start_as_current_span(
            method, kind=SpanKind.SERVER, attributes={"http.request.method": method}
        ) as s:
            yield s
    finally:
        otel_context.detach(token)


def current_ids() -> tuple[str, str] | None:
    """(trace id, span id) of the current span as hex, for log lines; None outside one."""
    current = trace.get_current_span().get_span_context()
    if not current.is_valid:
        return None
    return format(current.trace_id, "032x"), format(current.span_id, "016x")


def trace_statements(engine: AsyncEngine) -> None:
    """A client span per SQL statement (search's and every other), when tracing is on.

    The statement text has its parameters as placeholders: queries and document text travel
    as bound values, which are not recorded."""

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def start(
        _conn: Any, _cursor: Any, statement: str, _params: Any, context: Any, _many: bool
    ) -> None:
        if _tracer is None or context is None:
            return
        verb = statement.lstrip().split(None, 1)[0].upper() if statement.strip() else "SQL"
        s = _tracer.start_span(
            f"db {verb}",
            kind=SpanKind.CLIENT,
            attributes={
                "db.system": "postgresql",
                "db.statement": statement[:MAX_STATEMENT_CHARS],
            },
        )
        context._arbor_span = (s, time.perf_counter())

    @event.listens_for(engine.sync_engine, "after_cursor_execute")
    def end(
        _conn: Any, _cursor: Any, _statement: str, _params: Any, context: Any, _many: bool
    ) -> None:
        started = getattr(context, "_arbor_span", None)
        if started is not None:
            started[0].end()
            context._arbor_span = None

    @event.listens_for(engine.sync_engine, "handle_error")
    def failed(exception_context: Any) -> None:
        context = exception_context.execution_context
        started = getattr(context, "_arbor_span", None) if context is not None else None
        if started is not None:
            failure = type(exception_context.original_exception).__name__
            started[0].set_status(Status(StatusCode.ERROR, failure))
            started[0].end()
            context._arbor_span = None
