"""Streamed answers: the answer routes' `stream: true` form (text/event-stream).

Written by hand, not generated: OpenAPI describes the stream as a string, so the generated
`answers_*` functions can only return the JSON form. scripts/generate-sdk copies this file
into the package as `arbor_client.streaming`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from .client import AuthenticatedClient, Client
from .models import AnswerRequest, MultiAnswerRequest


@dataclass(frozen=True)
class AnswerEvent:
    """One event: `action`, `sources`, `delta` (`data["text"]`), `citation`, `done` (the whole
    answer, as the JSON form returns it) or `error` (a problem+json object)."""

    event: str
    data: dict[str, Any]


def _path(kb: str | None) -> str:
    return "/v1/answer" if kb is None else f"/v1/knowledge-bases/{quote(kb, safe='')}/answer"


def _body(body: AnswerRequest | MultiAnswerRequest) -> dict[str, Any]:
    return {**body.to_dict(), "stream": True}


class _Parser:
    """text/event-stream lines in, one AnswerEvent per blank-line-terminated event out."""

    def __init__(self) -> None:
        self.name, self.data = "message", list[str]()

    def feed(self, line: str) -> AnswerEvent | None:
        if not line:
            event = AnswerEvent(self.name, json.loads("\n".join(self.data))) if self.data else None
            self.name, self.data = "message", []
            return event
        if line.startswith("event:"):
            self.name = line[6:].strip()
        elif line.startswith("data:"):
            self.data.append(line[5:].strip())
        # Lines starting with ":" are keep-alives.
        return None


def stream_answer(
    client: AuthenticatedClient | Client,
    body: AnswerRequest | MultiAnswerRequest,
    *,
    kb: str | None = None,
) -> Iterator[AnswerEvent]:
    """The answer's events as they come; `kb` for one knowledge base (`AnswerRequest`),
    none for `MultiAnswerRequest` (its `knowledge_bases`). An error status raises
    `httpx.HTTPStatusError`."""
    with client.get_httpx_client().stream("POST", _path(kb), json=_body(body)) as response:
        if response.is_error:
            response.read()
            response.raise_for_status()
        parser = _Parser()
        for line in response.iter_lines():
            event = parser.feed(line)
            if event is not None:
                yield event


async def astream_answer(
    client: AuthenticatedClient | Client,
    body: AnswerRequest | MultiAnswerRequest,
    *,
    kb: str | None = None,
) -> AsyncIterator[AnswerEvent]:
    """`stream_answer` for asyncio."""
    http = client.get_async_httpx_client()
    async with http.stream("POST", _path(kb), json=_body(body)) as response:
        if response.is_error:
            await response.aread()
            response.raise_for_status()
        parser = _Parser()
        async for line in response.aiter_lines():
            event = parser.feed(line)
            if event is not None:
                yield event
