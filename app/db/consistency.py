"""Read-your-writes across replicas: the consistency token a write answers and a read presents.

The token is a write-ahead log position of the primary (an LSN, `16/B374D848`) taken after
the request's transactions committed: it covers every commit the request made or saw. A read
presenting it is served by a replica that has replayed that far, else by the primary
(app/db/replicas.py). A token that is not an LSN routes the read to the primary: never stale,
only slower.
"""

from __future__ import annotations

import logging
import re
from contextvars import ContextVar
from typing import TYPE_CHECKING

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.db.outage import is_outage, lost_connection
from app.kit.endpoints import EndpointFlag

if TYPE_CHECKING:
    from app.db.engine import Database

logger = logging.getLogger(__name__)

HEADER = "X-Arbor-Consistency-Token"
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# A token that is no LSN: larger than any position, so no replica qualifies.
UNREACHABLE = 1 << 64

# A route whose request only reads: its session may be served by a replica (get_session).
replica_read = EndpointFlag("replica_read")

_LSN = re.compile(r"([0-9A-Fa-f]{1,8})/([0-9A-Fa-f]{1,8})")

_presented: ContextVar[int | None] = ContextVar("arbor_consistency_token", default=None)


def parse_lsn(text: str) -> int:
    """`16/B374D848` as the 64-bit position it names; ValueError when it is not an LSN."""
    found = _LSN.fullmatch(text.strip())
    if found is None:
        raise ValueError(f"not an LSN: {text!r}")
    return (int(found[1], 16) << 32) | int(found[2], 16)


def format_lsn(position: int) -> str:
    return f"{position >> 32:X}/{position & 0xFFFFFFFF:X}"


def presented_token() -> int | None:
    """The position the current request must see (its token header), None without one."""
    return _presented.get()


def _token_of(scope: Scope) -> int | None:
    value = Headers(scope=scope).get(HEADER)
    if value is None:
        return None
    try:
        return parse_lsn(value)
    except ValueError:
        return UNREACHABLE


class ConsistencyMiddleware:
    """Reads the token a request presents; answers a write's token when replicas are in use.

    A write is any request that is neither a read method nor a route marked `replica_read`.
    Its token is read from the primary as the response starts, after the request's own
    transactions committed (the session dependency commits before the response).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # A request the app makes to itself (tools, MCP, Dify's retrieval) without a token of
        # its own reads as the request that makes it.
        token = _token_of(scope)
        reset = _presented.set(_presented.get() if token is None else token)
        try:
            database: Database | None = getattr(scope["app"].state, "database", None)
            if database is None or database.replicas is None or scope["method"] in READ_METHODS:
                await self.app(scope, receive, send)
                return

            async def send_token(message: Message) -> None:
                if message["type"] == "http.response.start" and not replica_read.marks(scope):
                    position = await _write_position(database)
                    if position is not None:
                        MutableHeaders(scope=message).append(HEADER, format_lsn(position))
                await send(message)

            await self.app(scope, receive, send_token)
        finally:
            _presented.reset(reset)


async def _write_position(database: Database) -> int | None:
    """The primary's WAL position now; None (no token) when the primary does not answer."""
    try:
        position = await database.write_position()
    except Exception as exc:
        if not is_outage(exc) and not lost_connection(exc):
            raise
        logger.warning("no consistency token: the primary is unavailable")
        return None
    return position
