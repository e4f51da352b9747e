"""Answer events as `text/event-stream`: one `event:`/`data:` pair each, keep-alives between."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import Any

from fastapi.encoders import jsonable_encoder

from app.answers.flow import (
    ActionEvent,
    AnswerEvent,
    CitationEvent,
    DeltaEvent,
    DoneEvent,
    SourcesEvent,
)
from app.db.outage import is_outage
from app.kit.errors import PROBLEM_BASE, AppError, DatabaseUnavailable

logger = logging.getLogger(__name__)

KEEPALIVE = b": keep-alive\n\n"
EVENT_NAMES = ("action", "sources", "delta", "citation", "done", "error")
# One event as an SSE parser reads it, its name and its `data` (one JSON object): OpenAPI 3.1
# has no `itemSchema`, and tools that validate streams (schemathesis) read the media type's
# schema as that of each event, as OpenAPI 3.2's `itemSchema` says.
EVENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["event", "data"],
    "properties": {
        "event": {"type": "string", "enum": list(EVENT_NAMES)},
        "data": {"type": "string", "contentMediaType": "application/json"},
    },
}
_END = object()
# Flow tasks still closing after their stream ended (a reference keeps them from being
# garbage-collected mid-cleanup).
_closing: set[asyncio.Task[None]] = set()


def encode(name: str, payload: Any) -> bytes:
    data = json.dumps(jsonable_encoder(payload), ensure_ascii=False, separators=(",", ":"))
    return f"event: {name}\ndata: {data}\n\n".encode()


def event_bytes(event: AnswerEvent) -> bytes:
    match event:
        case ActionEvent(action):
            return encode("action", action.model_dump(mode="json"))
        case SourcesEvent(sources):
            return encode("sources", {"sources": [s.model_dump(mode="json") for s in sources]})
        case DeltaEvent(text):
            return encode("delta", {"text": text})
        case CitationEvent(citation):
            return encode("citation", citation.model_dump(mode="json"))
        case DoneEvent(response):
            return encode("done", response.model_dump(mode="json"))


def problem_of(exc: BaseException, instance: str) -> dict[str, Any]:
    """The problem+json object an error event carries (no exception text for a 5xx bug)."""
    if is_outage(exc) and not isinstance(exc, AppError):
        exc = DatabaseUnavailable()
    if isinstance(exc, AppError):
        body = {"type": exc.type_uri, "title": exc.title, "status": exc.status}
        body |= {"detail": exc.detail, "instance": instance}
        body.update({k: v for k, v in exc.extra.items() if k != "headers"})
        return body
    logger.error("answer stream failed on %s", instance, exc_info=exc)
    return {
        "type": PROBLEM_BASE + "internal-error",
        "title": "Internal server error",
        "status": 500,
        "detail": "The server failed to process the request; the error was logged.",
        "instance": instance,
    }


async def stream_events(
    events: AsyncGenerator[AnswerEvent, None],
    *,
    instance: str,
    keepalive_s: float,
    on_done: Callable[[DoneEvent], None],
) -> AsyncIterator[bytes]:
    """Run the flow in its own task and relay its events; a comment every `keepalive_s` of
    silence keeps proxies from closing the connection (and lets servers that only notice a
    gone client on write notice it). When this generator is closed or cancelled (the client
    went away), the flow task is cancelled, which closes the LLM request."""
    queue: asyncio.Queue[object] = asyncio.Queue(maxsize=64)

    async def produce() -> None:
        try:
            async for event in events:
                await queue.put(event)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            await queue.put(exc)
        finally:
            with contextlib.suppress(Exception):
                await events.aclose()
        await queue.put(_END)

    task = asyncio.create_task(produce(), name="arbor-answer-flow")
    try:
        while True:
            try:
                item = await asyncio.wait_for(queue.get(), keepalive_s)
            except TimeoutError:
                yield KEEPALIVE
                continue
            if item is _END:
                return
            if isinstance(item, Exception):
                yield encode("error", problem_of(item, instance))
                return
            assert not isinstance(item, BaseException)
            event: AnswerEvent = item  # type: ignore[assignment]
            if isinstance(event, DoneEvent):
                on_done(event)
            yield event_bytes(event)
    finally:
        task.cancel()
        # Shielded: when this generator is itself cancelled (Starlette cancels the response
        # on disconnect, again at every await), a plain `await task` would pass a second
        # cancellation to the flow and interrupt its own cleanup, which is what closes the
        # LLM request (measured: the upstream stream kept running to its end).
        _closing.add(task)
        task.add_done_callback(_closing.discard)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(task)
