"""Paths that can name nothing: answered 404 before routing, auth or any query."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from app.kit.problems import problem_response
from app.kit.strings import unstorable


class UnstorablePathMiddleware:
    """404 for a path holding a NUL character: no id or name can hold one (Postgres text
    cannot), so the path names nothing, exactly like any unknown id. Looking it up would make
    the database fail on the character instead (a 500)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and unstorable(scope["path"]) is not None:
            response = problem_response(
                404,
                "not-found",
                "Not found",
                "Nothing has this path: ids and names never contain NUL characters.",
                instance=scope["path"],
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
