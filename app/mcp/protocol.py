"""The MCP server itself: the agent tools (app/tools) listed and called through a dispatcher.

Transport-free: `app.mcp.server` serves it at /mcp in the app, `app.mcp.stdio` over stdio.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import mcp_types as types
from mcp.server import Server, ServerRequestContext

from app.kit.errors import AppError
from app.tools import registry
from app.tools.dispatch import Dispatcher

SERVER_NAME = "arbor"

DispatcherOf = Callable[[ServerRequestContext[Any]], Dispatcher]


def build_server(dispatcher_of: DispatcherOf, *, version: str) -> Server[Any]:
    """An MCP server listing the agent tools and running each call through a dispatcher."""

    async def list_tools(
        _ctx: ServerRequestContext[Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=tool.name, description=tool.description, input_schema=tool.parameters()
                )
                for tool in registry.TOOLS.values()
            ]
        )

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        try:
            called = await registry.call(dispatcher_of(ctx), params.name, params.arguments)
        except registry.ToolFailed as failed:
            return _error(failed.problem)
        except AppError as exc:
            return _error(
                {"title": exc.title, "status": exc.status, "detail": exc.detail, **exc.extra}
            )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=called.text)],
            structured_content=called.result,
        )

    return Server(
        SERVER_NAME,
        version=version,
        instructions="Search Arbor knowledge bases and read their documents, with your key's "
        "rights. Start with list_knowledge_bases, then search_knowledge; cite passages as [n].",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _error(problem: dict[str, Any]) -> types.CallToolResult:
    """A failed call as MCP reports it: an error result the model can read (the problem)."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(problem, default=str))],
        structured_content=problem,
        is_error=True,
    )
