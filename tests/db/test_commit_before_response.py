"""A 2xx means committed: the request's transaction ends before its response starts."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession, AsyncSessionTransaction

from app.knowledge_bases import service as knowledge_bases

NAME = "committed-first"


async def test_a_write_commits_before_its_response_is_sent(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    exit_ = AsyncSessionTransaction.__aexit__

    async def slow_commit(self: AsyncSessionTransaction, *args: Any) -> None:
        ours = self.session.info.get(NAME, False)
        if ours:
            await asyncio.sleep(0.3)  # a slow commit: the response must wait for it
        await exit_(self, *args)
        if ours:
            order.append("commit")

    create = knowledge_bases.create

    async def marked_create(session: AsyncSession, **kwargs: Any) -> Any:
        session.info[NAME] = True  # the transaction that creates the knowledge base
        return await create(session, **kwargs)

    monkeypatch.setattr(knowledge_bases, "create", marked_create)
    monkeypatch.setattr(AsyncSessionTransaction, "__aexit__", slow_commit)
    body = json.dumps({"name": NAME}).encode()
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/knowledge-bases",
        "raw_path": b"/v1/knowledge-bases",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), (b"host", b"arbor.test")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if delivered:
            await asyncio.sleep(3600)  # the client stays connected
        delivered = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            order.append(f"response {message['status']}")

    await app(scope, receive, send)
    assert order == ["commit", "response 201"]
