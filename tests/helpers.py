"""Small helpers shared by API tests."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

from app.kit.protocols import ProblemHttpToolsProtocol


async def wait_ready(client: httpx.AsyncClient, url: str, timeout_s: float = 30) -> dict[str, Any]:
    """Poll a document until it is ready or failed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while True:
        document: dict[str, Any] = (await client.get(url)).json()
        if document["status"] in ("ready", "failed") or loop.time() > deadline:
            return document
        await asyncio.sleep(0.05)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def serve_in_loop(
    app: FastAPI, *, http: type = ProblemHttpToolsProtocol
) -> AsyncIterator[int]:
    """`app` (its lifespan already entered) behind a real uvicorn on a free port, in this
    event loop: the database pool stays on the loop it was made on. Yields the port."""
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, lifespan="off", http=http, log_level="warning"
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()  # start-up failed: raise why
        await asyncio.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        await task
