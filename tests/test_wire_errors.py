"""What only a real HTTP server shows: its own parse errors, and connections kept alive."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import pytest
from fastapi import FastAPI

from app.kit.protocols import ProblemH11Protocol, ProblemHttpToolsProtocol
from tests.helpers import serve_in_loop


@pytest.fixture(params=[ProblemHttpToolsProtocol, ProblemH11Protocol])
async def port(app: FastAPI, request: pytest.FixtureRequest) -> AsyncIterator[int]:
    async with serve_in_loop(app, http=request.param) as bound:
        yield bound


async def _exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, dict[str, str], bytes]:
    writer.write(request)
    await writer.drain()
    status_line = await reader.readline()
    headers: dict[str, str] = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return int(status_line.split()[1]), headers, body


async def test_an_unparsable_request_line_is_a_problem_400(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        status, headers, body = await _exchange(
            reader, writer, b"GET /v1/knowledge-bases?q=a\x01b HTTP/1.1\r\nhost: arbor\r\n\r\n"
        )
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
    assert status == 400
    assert headers["content-type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["type"].endswith("/bad-request")
    assert problem["status"] == 400


async def test_a_deep_filter_is_422_and_the_connection_stays_open(port: int) -> None:
    """962 levels were a RecursionError in json.loads: a 500 that closed the keep-alive
    connection, so the client's next request on it was reset."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    create = json.dumps({"name": "wire"}).encode()
    deep = "%5B" * 962 + "%5D" * 962
    try:
        status, _, _ = await _exchange(
            reader,
            writer,
            b"POST /v1/knowledge-bases HTTP/1.1\r\nhost: arbor\r\ncontent-type: application/json"
            b"\r\ncontent-length: " + str(len(create)).encode() + b"\r\n\r\n" + create,
        )
        assert status == 201
        for _ in range(2):
            status, headers, body = await _exchange(
                reader,
                writer,
                f"GET /v1/knowledge-bases/wire/documents?filter={deep} HTTP/1.1\r\n"
                "host: arbor\r\n\r\n".encode(),
            )
            assert status == 422, body
            assert headers["content-type"] == "application/problem+json"
            assert headers.get("connection") != "close"
        status, _, body = await _exchange(
            reader, writer, b"GET /v1/knowledge-bases/wire HTTP/1.1\r\nhost: arbor\r\n\r\n"
        )
        assert status == 200, body
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
