"""Small helpers shared by API tests."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx


async def wait_ready(client: httpx.AsyncClient, url: str, timeout_s: float = 30) -> dict[str, Any]:
    """Poll a document until it is ready or failed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while True:
        document: dict[str, Any] = (await client.get(url)).json()
        if document["status"] in ("ready", "failed") or loop.time() > deadline:
            return document
        await asyncio.sleep(0.05)
