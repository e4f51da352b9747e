"""A loopback web server for fetcher and http source tests, with pages a test can change."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ARTICLE = (
    "<html><head><title>{title}</title></head><body><nav><ul><li><a href='/'>Home</a></li>"
    "<li><a href='/about'>About us</a></li></ul></nav><main><article><h1>{title}</h1>"
    "<p>{body} This paragraph is the page's real content, long enough to be found as such.</p>"
    "<p>{body} A second paragraph says it again, as articles of the handbook tend to.</p>"
    "</article></main><footer>Copyright 2026 Example Corporation</footer></body></html>"
)


class Site:
    def __init__(self) -> None:
        # path -> (status, headers, body)
        self.pages: dict[str, tuple[int, dict[str, str], bytes]] = {}
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.base = ""

    def article(self, path: str, title: str, body: str, *, etag: str | None = None) -> None:
        headers = {"Content-Type": "text/html; charset=utf-8"}
        if etag:
            headers["ETag"] = etag
        self.pages[path] = (200, headers, ARTICLE.format(title=title, body=body).encode())


def _handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            site.requests.append((self.path, dict(self.headers.items())))
            if self.path == "/slow":
                time.sleep(1.5)
            if self.path == "/big":
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                for _ in range(64):
                    self.wfile.write(b"x" * 1024)
                return
            found = site.pages.get(self.path)
            if found is None:
                self.send_response(404)
                self.end_headers()
                return
            status, headers, body = found
            etag = headers.get("ETag")
            if etag is not None and self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.end_headers()
                return
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler


@contextmanager
def serve() -> Iterator[Site]:
    site = Site()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(site))
    server.daemon_threads = True  # a slow page's thread is not waited for at the end
    site.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
