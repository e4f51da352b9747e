"""The MCP server in the app: the agent tools (app/mcp/protocol.py) at `/mcp`.

At `/mcp` (streamable HTTP, stateless, JSON responses) every message is authenticated with the
bearer key like any REST request, and each tool call runs through the app in-process as that
key (`app.tools.dispatch.InProcess`). Stateless: a request carries all a tool needs (its key),
so any HTTP process of `arbor serve` can answer it, and nothing lives between requests.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.security import HTTPAuthorizationCredentials
from mcp.server import ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from app.auth.callers import Caller
from app.auth.callers import Scope as KeyScope
from app.auth.dependencies import bearer, get_caller
from app.kit.errors import Forbidden
from app.mcp.protocol import DispatcherOf, build_server
from app.tools.dispatch import Dispatcher, InProcess

PATH = "/mcp"
# Where the authenticated caller of an /mcp request waits for its tool calls. Not under
# "caller": the audit middleware would record the MCP request itself, as an unknown
# operation, besides the REST calls its tools make (which it records as what they are).
CALLER_STATE = "mcp_caller"


def _in_process(app: FastAPI) -> DispatcherOf:
    def dispatcher_of(ctx: ServerRequestContext[Any]) -> Dispatcher:
        request = ctx.request
        assert isinstance(request, Request)
        caller = request.scope["state"][CALLER_STATE]
        assert isinstance(caller, Caller)
        return InProcess(app, caller)

    return dispatcher_of


class McpEndpoint:
    """`/mcp`: authenticate the key (401/403/429 problem+json), then hand over to MCP."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        credentials: HTTPAuthorizationCredentials | None = await bearer(request)
        caller = await get_caller(request, credentials)
        # get_caller caches the caller where the audit middleware looks; move it (CALLER_STATE).
        state = scope["state"]
        state[CALLER_STATE] = state.pop("caller")
        if not caller.allows(KeyScope.READ):
            raise Forbidden("This API key lacks the 'read' scope.")
        sessions: StreamableHTTPSessionManager = self.app.state.mcp_sessions
        await sessions.handle_request(scope, receive, send)


def mount(app: FastAPI) -> None:
    """Serve MCP at /mcp; `running(app)` must wrap the app's lifespan."""
    app.state.mcp_server = build_server(_in_process(app), version=app.version)
    app.router.routes.append(
        Route(
            PATH,
            endpoint=McpEndpoint(app),
            # POST only: stateless, there is no session to DELETE, and a GET stream for
            # server-initiated messages would stay open with nothing to send (MCP lets a
            # server answer both with 405, which the SDK's client expects).
            methods=["POST"],
            include_in_schema=False,
        )
    )


@asynccontextmanager
async def running(app: FastAPI) -> AsyncIterator[None]:
    """The MCP session manager for one run of the app (a manager runs only once).

    It runs in a task of its own: its task group must be entered and left by one task, and a
    lifespan may be started and ended by different ones (test fixtures do).
    """
    sessions = StreamableHTTPSessionManager(
        app=app.state.mcp_server, stateless=True, json_response=True
    )
    app.state.mcp_sessions = sessions
    started, stop = asyncio.Event(), asyncio.Event()

    async def serve() -> None:
        async with sessions.run():
            started.set()
            await stop.wait()

    task = asyncio.create_task(serve(), name="arbor-mcp-sessions")
    waiting = asyncio.create_task(started.wait())
    await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()
    if task.done():
        task.result()  # it failed to start: raise why
    try:
        yield
    finally:
        stop.set()
        await task
