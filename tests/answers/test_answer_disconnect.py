"""A client that goes away mid-stream cancels the upstream LLM request (a real server, since
only a real connection can be dropped)."""

from __future__ import annotations

import asyncio
import socket

import httpx
import uvicorn
from fastapi import FastAPI

from tests.answers.conftest import parse_sse
from tests.fake_openai import ChatReply, FakeChat


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def test_disconnect_cancels_the_llm_request(
    app: FastAPI, client: httpx.AsyncClient, handbook: str, fake: FakeChat
) -> None:
    fake.responder = None
    fake.queue(ChatReply("word " * 400, chunk_chars=5, chunk_delay_s=0.05))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning", lifespan="off"))
    serving = asyncio.create_task(server.serve())
    try:
        for _ in range(500):  # uvicorn offers no event to wait on
            if server.started:
                break
            await asyncio.sleep(0.02)
        async with (
            httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http,
            http.stream(
                "POST",
                f"/v1/knowledge-bases/{handbook}/answer",
                json={"query": "How many days of leave?", "stream": True, "mode": "quick"},
            ) as response,
        ):
            assert response.status_code == 200
            received = ""
            async for chunk in response.aiter_text():
                received += chunk
                if "event: delta" in received:
                    break  # leaving the block closes the connection mid-answer
        assert "event: done" not in received
        assert [name for name, _ in parse_sse(received)][:2] == ["action", "action"]
        gone = await asyncio.to_thread(fake.wait_for, lambda: fake.disconnects == 1, 10)
        assert gone, "the LLM stream was not closed"
        assert fake.streams_finished == 0
    finally:
        server.should_exit = True
        await serving
