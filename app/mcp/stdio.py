"""`arbor mcp`: the MCP tools over stdio, for desktop agents (Claude Desktop, Cursor).

The tools call a running Arbor server over HTTP with the key from the environment
(`ARBOR_URL`, `ARBOR_API_KEY`, and `ARBOR_PRINCIPALS` for a gateway key). Over HTTP rather
than in-process: a desktop agent starts this command itself, and one server keeps the data,
the embedding model and the job loops, instead of each agent window starting its own
database and loading its own model; the key's rights are checked by that server, exactly as
for REST and `/mcp`.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

from mcp.server import ServerRequestContext
from mcp.server.stdio import stdio_server

from app.mcp.protocol import build_server
from app.tools.dispatch import Dispatcher, OverHttp


async def serve_stdio(url: str, headers: dict[str, str]) -> None:
    key = headers.get("Authorization", "").removeprefix("Bearer ") or None
    dispatcher = OverHttp(
        url,
        key=key,
        principals=headers.get("X-Arbor-Principals"),
        project=headers.get("X-Arbor-Project"),
    )

    def dispatcher_of(_ctx: ServerRequestContext[Any]) -> Dispatcher:
        return dispatcher

    server = build_server(dispatcher_of, version=version("arbor"))
    try:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    finally:
        await dispatcher.aclose()
