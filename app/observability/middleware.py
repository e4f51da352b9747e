"""Per request: an id (X-Request-ID in and out), a trace span, and the request metrics."""

from __future__ import annotations

import re
import time
import uuid

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.observability import metrics, tracing
from app.observability.logs import request_id

HEADER = b"x-request-id"
# A caller's id is kept when it is short and plain, else replaced: it is logged verbatim.
ACCEPTED_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
UNMATCHED = "unmatched"


def route_template(scope: Scope) -> str:
    """The matched route's path template (`/v1/knowledge-bases/{kb}/search`), never the path."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else UNMATCHED


class ObservabilityMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        received = Headers(scope=scope)
        given = received.get(HEADER.decode(), "")
        rid = given if ACCEPTED_ID.match(given) else uuid.uuid4().hex
        token = request_id.set(rid)
        method = scope["method"]
        status = 500
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                message["headers"] = [*message.get("headers", []), (HEADER, rid.encode())]
            await send(message)

        try:
            with tracing.request_span(method, received) as span:
                try:
                    await self.app(scope, receive, send_with_id)
                finally:
                    route = route_template(scope)
                    if span is not None:
                        span.update_name(f"{method} {route}")
                        span.set_attribute("http.route", route)
                        span.set_attribute("http.response.status_code", status)
                        span.set_attribute("arbor.request_id", rid)
        finally:
            metrics.record_request(
                method=method,
                route=route_template(scope),
                status=status,
                seconds=time.perf_counter() - started,
            )
            request_id.reset(token)
