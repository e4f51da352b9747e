"""A tiny OpenAI-compatible server for tests (run as a module or in a thread): /v1/embeddings,
and /v1/chat/completions with JSON or real SSE streaming, scripted replies, slow and failing
modes, and a record of every chat request received."""

from __future__ import annotations

import argparse
import hashlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np


def fake_vector(text: str, dimensions: int) -> list[float]:
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    vector = np.random.default_rng(seed).standard_normal(dimensions)
    return [float(x) for x in vector / np.linalg.norm(vector)]


@dataclass
class ChatReply:
    """One scripted answer: text (streamed in `chunk_chars` pieces) or an error status."""

    text: str = "ok"
    status: int = 200
    retry_after: str | None = None
    # Seconds before the first byte and between two streamed chunks (slow mode).
    delay_s: float = 0.0
    chunk_delay_s: float = 0.0
    chunk_chars: int = 6
    # Close the connection after this many streamed chunks, without `[DONE]` (a crash).
    break_after: int | None = None


@dataclass
class FakeChat:
    """The chat side's state, shared with the test: script replies, read what was asked."""

    script: deque[ChatReply] = field(default_factory=deque)
    # Answers requests once the script is empty (default: ChatReply("ok")).
    responder: Callable[[dict[str, Any]], ChatReply] | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    authorizations: list[str | None] = field(default_factory=list)
    # Streams the client closed before the end, and streams sent to the end.
    disconnects: int = 0
    streams_finished: int = 0
    base_url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def queue(self, *replies: ChatReply | str) -> None:
        for reply in replies:
            self.script.append(ChatReply(reply) if isinstance(reply, str) else reply)

    def fail(self, times: int, *, status: int = 429, retry_after: str | None = "0") -> None:
        """The next `times` requests answer `status` (with Retry-After unless None)."""
        for _ in range(times):
            self.script.append(ChatReply("", status=status, retry_after=retry_after))

    def next_reply(self, body: dict[str, Any]) -> ChatReply:
        with self.lock:
            self.requests.append(body)
            if self.script:
                return self.script.popleft()
        return self.responder(body) if self.responder else ChatReply()

    def prompt_text(self) -> str:
        """Every message of every request received, joined: to check what reached the LLM."""
        with self.lock:
            return "\n".join(
                str(m.get("content", "")) for body in self.requests for m in body["messages"]
            )

    def wait_for(self, predicate: Callable[[], bool], timeout_s: float = 5.0) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if predicate():
                return True
            time.sleep(0.02)
        return predicate()


def _usage(body: dict[str, Any], text: str) -> dict[str, int]:
    prompt = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
    return {
        "prompt_tokens": prompt,
        "completion_tokens": len(text.split()),
        "total_tokens": prompt + len(text.split()),
    }


def make_server(
    port: int, *, dimensions: int = 8, delay_s: float = 0.0, chat: FakeChat | None = None
) -> ThreadingHTTPServer:
    chat_state = chat or FakeChat()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            if self.path.rstrip("/").endswith("/chat/completions"):
                with chat_state.lock:
                    chat_state.authorizations.append(self.headers.get("authorization"))
                self._chat(body)
                return
            time.sleep(delay_s)
            inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
            data = [
                {"object": "embedding", "index": i, "embedding": fake_vector(text, dimensions)}
                for i, text in enumerate(inputs)
            ]
            payload = json.dumps({"object": "list", "data": data, "model": body["model"]}).encode()
            self._send_json(200, payload)

        def _send_json(
            self, status: int, payload: bytes, headers: dict[str, str] | None = None
        ) -> None:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

        def _chat(self, body: dict[str, Any]) -> None:
            reply = chat_state.next_reply(body)
            time.sleep(reply.delay_s)
            if reply.status != 200:
                error = {"error": {"message": f"scripted {reply.status}", "type": "fake"}}
                headers = {"retry-after": reply.retry_after} if reply.retry_after else {}
                self._send_json(reply.status, json.dumps(error).encode(), headers)
                return
            model = body.get("model", "fake")
            if not body.get("stream"):
                payload = {
                    "id": "chatcmpl-fake",
                    "object": "chat.completion",
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": reply.text},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": _usage(body, reply.text),
                }
                self._send_json(200, json.dumps(payload).encode())
                return
            self._stream(body, reply, model)

        def _stream(self, body: dict[str, Any], reply: ChatReply, model: str) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.end_headers()
            size = max(1, reply.chunk_chars)
            pieces = [reply.text[i : i + size] for i in range(0, len(reply.text), size)]
            events: list[str] = [": keep-alive"]
            for i, piece in enumerate(pieces):
                choice = {
                    "index": 0,
                    "delta": {"content": piece} if i else {"role": "assistant", "content": piece},
                    "finish_reason": None,
                }
                events.append("data: " + json.dumps({"model": model, "choices": [choice]}))
            stop = {"index": 0, "delta": {}, "finish_reason": "stop"}
            events.append("data: " + json.dumps({"model": model, "choices": [stop]}))
            if (body.get("stream_options") or {}).get("include_usage"):
                usage = {"model": model, "choices": [], "usage": _usage(body, reply.text)}
                events.append("data: " + json.dumps(usage))
            events.append("data: [DONE]")
            try:
                if reply.break_after is not None:
                    events = events[: reply.break_after + 1]  # + the leading comment
                for i, event in enumerate(events):
                    if i > 1:
                        time.sleep(reply.chunk_delay_s)
                    self.wfile.write((event + "\n\n").encode())
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                with chat_state.lock:
                    chat_state.disconnects += 1
                return
            with chat_state.lock:
                chat_state.streams_finished += 1

        def log_message(self, format: str, *args: object) -> None:
            """Quiet."""

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


def serve_in_thread(
    port: int, *, dimensions: int = 8, delay_s: float = 0.0, chat: FakeChat | None = None
) -> ThreadingHTTPServer:
    server = make_server(port, dimensions=dimensions, delay_s=delay_s, chat=chat)
    # A short poll keeps shutdown() (fixture teardown) fast.
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    return server


KEY_ENV = "FAKE_OPENAI_KEY"


def embedding_setting(port: int, dimensions: int) -> dict[str, Any]:
    """A knowledge base's `embedding` that reads the fake server on `port` (its key in the
    environment variable `KEY_ENV`, which a server under test must be given)."""
    return {
        "provider": "openai",
        "model": "fake",
        "dimensions": dimensions,
        "base_url": f"http://127.0.0.1:{port}/v1",
        "api_key_env": KEY_ENV,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dimensions", type=int, default=8)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--reply", default="ok", help="chat answer text")
    parser.add_argument("--chunk-delay", type=float, default=0.0)
    args = parser.parse_args()
    state = FakeChat(responder=lambda _body: ChatReply(args.reply, chunk_delay_s=args.chunk_delay))
    make_server(
        args.port, dimensions=args.dimensions, delay_s=args.delay, chat=state
    ).serve_forever()
