"""Record every search and every write (non-GET request) of an authenticated caller.

Plain ASGI: it watches the response status, and once the response is sent, writes one audit
event, scoped to the caller's project, together with the search analytics rows the route noted
(app/analytics/service.py): one transaction and one INSERT each instead of a transaction per
record. The request's task ends only when they are committed, so a clean shutdown, which waits
for running requests, loses none; a crash of the service between the response and the commit
loses that request's records. A failure to record is logged; it cannot change an answer the
client already has. Analytics rows that fail do not take the audit event with them: it is
written again alone. Routes add what only they know (search hits, the managed project) to
`request.state` (see `note_hits`).
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from fastapi import Request
from sqlalchemy import insert
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.analytics import service as analytics
from app.auth.callers import Caller
from app.db.engine import Database
from app.db.outage import is_outage
from app.models import AuditEvent
from app.models.base import table_of

logger = logging.getLogger(__name__)

AUDITED_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MAX_PATH_CHARS = 2000


def note_details(request: Request, details: dict[str, Any]) -> None:
    """Put an operation's own facts on its audit record (JSON-serialisable values)."""
    request.state.audit_details = details


def note_hits(request: Request, hits: int) -> None:
    """Tell the audit record how many hits a search returned."""
    request.state.audit_hits = hits


# A Core INSERT of the table, built once: the ORM's unit of work, and even its bulk INSERT of
# the mapped class, cost more CPU than the row.
INSERT_AUDIT_EVENT = insert(table_of(AuditEvent))


class AuditMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in AUDITED_METHODS:
            await self.app(scope, receive, send)
            return
        # Request.state lives in scope["state"]; make sure it is this dict the routes fill.
        state: dict[str, Any] = scope.setdefault("state", {})
        status = 500

        async def send_with_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_with_status)
        finally:
            caller = state.get("caller")
            event = _event(scope, state, caller, status) if isinstance(caller, Caller) else None
            await _record(scope["app"].state.database, event, analytics.take_noted(state))


def _event(scope: Scope, state: dict[str, Any], caller: Caller, status: int) -> dict[str, Any]:
    route = scope.get("route")
    return {
        "id": uuid.uuid4(),
        "project_id": state.get("audit_project_id") or caller.project.id,
        "api_key_id": caller.api_key_id,
        "actor": caller.actor[:100],
        "operation": getattr(route, "operation_id", None) or "unknown",
        "method": scope["method"],
        "path": str(scope.get("path", ""))[:MAX_PATH_CHARS],
        "status": status,
        "target": {k: str(v) for k, v in (scope.get("path_params") or {}).items()},
        "hits": state.get("audit_hits"),
        "details": state.get("audit_details"),
    }


async def _record(
    database: Database,
    event: dict[str, Any] | None,
    noted: tuple[uuid.UUID, list[dict[str, Any]]] | None,
) -> None:
    """Write the audit event and the analytics rows, in one transaction where they belong to
    one project (a search's always do)."""
    together = event is not None and noted is not None and noted[0] == event["project_id"]
    if event is not None:
        await _write(database, event, noted[1] if together and noted is not None else [])
    if noted is not None and not together:
        project_id, rows = noted
        try:
            async with database.transaction(project_id=project_id) as session:
                await analytics.add(session, rows, durable=False)
        except Exception as exc:
            analytics.dropped(rows, exc)


async def _write(database: Database, event: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    try:
        async with database.transaction(project_id=event["project_id"]) as session:
            await session.execute(INSERT_AUDIT_EVENT, event)
            if rows:
                # Durable like the audit event it commits with.
                await analytics.add(session, rows, durable=True)
    except Exception as exc:
        if rows:
            analytics.dropped(rows, exc)
            if not is_outage(exc):
                # The analytics rows may be what failed: the audit event is written again on
                # its own (no savepoint on every search for a failure that should not happen).
                await _write(database, event, [])
                return
        if not is_outage(exc):
            logger.error(
                "could not record the audit event of %s %s",
                event["method"],
                event["path"],
                exc_info=exc,
            )
            return
        # The database went away: a traceback per request would only repeat that.
        logger.warning(
            "could not record the audit event of %s %s: the database is unavailable",
            event["method"],
            event["path"],
        )
