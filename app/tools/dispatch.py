"""How a tool reaches the REST API: in the server's own process, or over HTTP.

A tool is a REST call with the caller's own rights, nothing more. In the server, the call goes
through the whole ASGI app in-process (middleware, dependencies, the same routes and services)
with the caller already authenticated, so scopes, knowledge-base limits, principals,
delegation, row-level security and the audit log apply exactly as to the REST request, and the
result is byte for byte what REST returns to that key. `arbor mcp` (stdio) talks to a running
server over HTTP with a key from the environment, the same calls through the network.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

import httpx

if TYPE_CHECKING:
    # Not at run time: `arbor mcp` and the CLI use this module without the server's models.
    from starlette.types import ASGIApp, Receive, Scope, Send

    from app.auth.callers import Caller

# In-process calls never leave the machine; the host only has to be well-formed.
INTERNAL_BASE_URL = "http://arbor.internal"


def segment(value: str) -> str:
    """A path segment from a name or id, whatever characters it holds."""
    return quote(value, safe="")


class Dispatcher(Protocol):
    async def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, str | int] | None = None,
    ) -> httpx.Response: ...


def _as_caller(app: ASGIApp, caller: Caller) -> ASGIApp:
    """The app, with every request already authenticated as `caller`.

    `get_caller` returns `request.state.caller` when set: no second key lookup, and no second
    rate-limit hit for one tool call (the request that carried the call was counted).
    """

    async def with_caller(scope: Scope, receive: Receive, send: Send) -> None:
        scope["state"] = {"caller": caller}
        await app(scope, receive, send)

    return with_caller


class InProcess:
    """Tool calls through the app itself, as an authenticated caller."""

    def __init__(self, app: ASGIApp, caller: Caller) -> None:
        # An unexpected error inside is answered as the app answers it (a 500 problem, passed
        # on to the tool's caller) rather than raised into the request that carried the call.
        self._transport = httpx.ASGITransport(
            app=_as_caller(app, caller), raise_app_exceptions=False
        )

    async def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, str | int] | None = None,
    ) -> httpx.Response:
        async with httpx.AsyncClient(
            transport=self._transport, base_url=INTERNAL_BASE_URL
        ) as client:
            return await client.request(method, path, json=json, params=params)


class OverHttp:
    """Tool calls to a running Arbor server, with a key (and delegated principals)."""

    def __init__(
        self,
        base_url: str,
        *,
        key: str | None,
        principals: str | None = None,
        project: str | None = None,
        timeout_s: float = 60.0,
    ) -> None:
        headers: dict[str, str] = {}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        if principals:
            headers["X-Arbor-Principals"] = principals
        if project:
            headers["X-Arbor-Project"] = project
        self._client = httpx.AsyncClient(base_url=base_url, headers=headers, timeout=timeout_s)

    async def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, str | int] | None = None,
    ) -> httpx.Response:
        return await self._client.request(method, path, json=json, params=params)

    async def aclose(self) -> None:
        await self._client.aclose()
