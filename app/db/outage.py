"""A database that is gone, told apart from a statement that failed.

Connection-level failures (refused or timed-out connects, a socket file that is not there, a
connection the server closed, Postgres shutting down or refusing connections, a pool with no
connection to spare) become `DatabaseUnavailable`: a 503 with Retry-After for requests, one
warning and a pause for the job loops. Anything else stays what it was (a bug is a 500).
"""

from __future__ import annotations

from typing import Any

import asyncpg
from sqlalchemy import event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine

from app.kit.errors import DatabaseUnavailable

# SQLSTATEs of a connection, not of a statement: class 08 (connection exception), the server
# shutting down or crashed (57P01, 57P02), starting up (57P03), out of connection slots (53300).
_CONNECTION_STATES = frozenset({"57P01", "57P02", "57P03", "53300"})
# How far down `raise ... from` chains to look.
_MAX_CAUSES = 8


def lost_connection(exc: BaseException) -> bool:
    """Whether `exc`, as a driver raised it, is a failure of the connection itself."""
    if isinstance(exc, OSError | asyncpg.exceptions.ConnectionDoesNotExistError):
        # OSError covers refused, reset, timed out (TimeoutError) and a missing Unix socket.
        return True
    sqlstate = getattr(exc, "sqlstate", None)
    return isinstance(sqlstate, str) and (
        sqlstate.startswith("08") or sqlstate in _CONNECTION_STATES
    )


def is_outage(exc: BaseException) -> bool:
    """Whether `exc` (or what it was raised from) says the database is unavailable."""
    current: BaseException | None = exc
    for _ in range(_MAX_CAUSES):
        if current is None:
            return False
        if isinstance(current, DatabaseUnavailable | PoolTimeout):
            return True
        if isinstance(current, DBAPIError) and current.connection_invalidated:
            return True
        current = current.__cause__
    return False


def watch_connections(engine: AsyncEngine) -> None:
    """Raise `DatabaseUnavailable` for connection-level failures of `engine`.

    Two places, because SQLAlchemy hands only some of them to `handle_error`: a failed
    connect reaches it only when the driver raised a DBAPI error, and asyncpg raises OSError
    (refused, no socket) or its own exceptions there.
    """

    @event.listens_for(engine.sync_engine, "do_connect")
    def connect(dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        try:
            return dialect.connect(*cargs, **cparams)
        except Exception as exc:
            if lost_connection(exc):
                raise DatabaseUnavailable(
                    "The database is unavailable (no connection could be made); try again shortly."
                ) from exc
            raise

    @event.listens_for(engine.sync_engine, "handle_error")
    def translate(context: ExceptionContext) -> BaseException | None:
        if not isinstance(context.original_exception, Exception):
            # A cancelled task (CancelledError) counts as a disconnect to SQLAlchemy, as the
            # connection's state is unknown; replaced, the cancellation would be lost.
            return None
        if context.is_disconnect or lost_connection(context.original_exception):
            # Marked as a disconnect, SQLAlchemy discards this connection and the pool's
            # older ones: the next checkout connects afresh instead of reusing a dead socket.
            context.is_disconnect = True
            return DatabaseUnavailable(
                "The database is unavailable (the connection was lost); try again shortly."
            )
        return None
