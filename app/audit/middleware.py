"""Record every search and every write (non-GET request) of an authenticated caller.

Plain ASGI: it watches the response status, and once the response is sent, writes one audit
event in its own transaction, scoped to the caller's project. A failure to record is logged;
it cannot change an answer the client already has. Routes add what only they know (search
hits, the managed project) to `request.state` (see `note_hits`).
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from fastapi import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.auth.callers import Caller
from app.db.engine import Database
from app.db.outage import is_outage
from app.models import AuditEvent

logger = logging.getLogger(__name__)

AUDITED_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MAX_PATH_CHARS = 2000


def note_details(request: Request, details: dict[str, Any]) -> None:
    """Put an operation's own facts on its audit record (JSON-serialisable values)."""
    request.state.audit_details = details


def note_hits(request: Request, hits: int) -> None:
    """Tell the audit record how many hits a search returned."""
    request.state.audit_hits = hits


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
            if isinstance(caller, Caller):
                await self._record(scope, state, caller, status)

    async def _record(
        self, scope: Scope, state: dict[str, Any], caller: Caller, status: int
    ) -> None:
        route = scope.get("route")
        operation = getattr(route, "operation_id", None) or "unknown"
        project_id = state.get("audit_project_id") or caller.project.id
        database: Database = scope["app"].state.database
        event = AuditEvent(
            id=uuid.uuid4(),
            project_id=project_id,
            api_key_id=caller.api_key_id,
            actor=caller.actor[:100],
            operation=operation,
            method=scope["method"],
            path=str(scope.get("path", ""))[:MAX_PATH_CHARS],
            status=status,
            target={k: str(v) for k, v in (scope.get("path_params") or {}).items()},
            hits=state.get("audit_hits"),
            details=state.get("audit_details"),
        )
        try:
            async with database.transaction(project_id=project_id) as session:
                session.add(event)
        except Exception as exc:
            if not is_outage(exc):
                logger.exception(
                    "could not record the audit event of %s %s", event.method, event.path
                )
                return
            # The database went away: a traceback per request would only repeat that.
            logger.warning(
                "could not record the audit event of %s %s: the database is unavailable",
                event.method,
                event.path,
            )
