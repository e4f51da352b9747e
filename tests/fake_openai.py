"""A tiny OpenAI-compatible /v1/embeddings server for tests (run as a module or in a thread)."""

from __future__ import annotations

import argparse
import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np


def fake_vector(text: str, dimensions: int) -> list[float]:
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    vector = np.random.default_rng(seed).standard_normal(dimensions)
    return [float(x) for x in vector / np.linalg.norm(vector)]


def make_server(port: int, *, dimensions: int, delay_s: float) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            time.sleep(delay_s)
            inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
            data = [
                {"object": "embedding", "index": i, "embedding": fake_vector(text, dimensions)}
                for i, text in enumerate(inputs)
            ]
            payload = json.dumps({"object": "list", "data": data, "model": body["model"]}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet."""

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


def serve_in_thread(port: int, *, dimensions: int, delay_s: float) -> ThreadingHTTPServer:
    server = make_server(port, dimensions=dimensions, delay_s=delay_s)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dimensions", type=int, default=8)
    parser.add_argument("--delay", type=float, default=0.0)
    args = parser.parse_args()
    make_server(args.port, dimensions=args.dimensions, delay_s=args.delay).serve_forever()
