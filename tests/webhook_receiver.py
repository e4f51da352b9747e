"""A local HTTP receiver for webhook deliveries: records each request, answers as scripted;
and rounds of a dispatcher until deliveries arrive."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from app.webhooks.dispatcher import WebhookDispatcher


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def event(self) -> dict[str, Any]:
        return dict(json.loads(self.body))


@dataclass
class Receiver:
    url: str
    received: list[Received] = field(default_factory=list)
    # (status, headers) answered in turn; 200 once they are used up.
    answers: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    # Seconds each request waits before it is answered.
    delay_s: float = 0.0
    # When given, each request is answered only once it is set (at most 30 s): a test changes
    # something while a delivery is under way, however slow the machine is.
    gate: threading.Event | None = None

    async def wait_for(self, count: int, *, timeout_s: float) -> None:
        """Until `count` requests arrived (they come from a background task), or the timeout."""
        async with asyncio.timeout(timeout_s):
            while len(self.received) < count:  # noqa: ASYNC110 (a server thread appends)
                await asyncio.sleep(0.05)

    def events(self) -> list[tuple[str, str]]:
        return [(r.event["type"], r.event["subject_id"]) for r in self.received]


@contextmanager
def receiving() -> Iterator[Receiver]:
    receiver = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["content-length"]))
            headers = {name.lower(): value for name, value in self.headers.items()}
            receiver.received.append(Received(self.path, headers, body))
            time.sleep(receiver.delay_s)
            if receiver.gate is not None:
                receiver.gate.wait(timeout=30)
            status, extra = receiver.answers.pop(0) if receiver.answers else (200, {})
            self.send_response(status)
            for name, value in extra.items():
                self.send_header(name, value)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


async def deliver(dispatcher: WebhookDispatcher, receiver: Receiver, count: int) -> None:
    """Rounds until `count` requests arrived: an event is sent once no transaction that
    began before it is still running, which a background job may delay for a moment."""
    deadline = time.monotonic() + 10
    while len(receiver.received) < count and time.monotonic() < deadline:
        if not await dispatcher.run_once():
            await asyncio.sleep(0.05)
    assert len(receiver.received) == count, receiver.events()
