"""FastAPI dependencies: the caller of a request, and the scope a route needs."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import ColumnElement

from app.auth import service
from app.auth.acl import visible_documents_clause
from app.auth.callers import Caller, Scope
from app.auth.mode import AuthMode
from app.auth.ratelimit import RateLimiter
from app.db.engine import Database
from app.kit.errors import Forbidden, RateLimited

PROJECT_HEADER = "X-Arbor-Project"
PRINCIPALS_HEADER = "X-Arbor-Principals"
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="ApiKey",
    description="An Arbor API key (`arb_...`): `Authorization: Bearer <key>`.",
)


async def get_caller(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Caller:
    """Authenticate the request once; rate-limited per key."""
    state = request.state
    cached = getattr(state, "caller", None)
    if isinstance(cached, Caller):
        return cached
    app_state = request.app.state
    mode: AuthMode = app_state.auth_mode
    database: Database = app_state.database
    caller = await service.authenticate(
        database,
        app_state.settings,
        enabled=mode.enabled,
        token=credentials.credentials if credentials is not None else None,
        project_ref=request.headers.get(PROJECT_HEADER),
        principals_header=request.headers.get(PRINCIPALS_HEADER),
    )
    state.caller = caller
    limiter: RateLimiter = app_state.rate_limiter
    retry_after = await limiter.hit(caller.rate_limit_key)
    if retry_after is not None:
        raise RateLimited(
            f"More than {limiter.per_minute} requests per minute with this key; retry in "
            f"{retry_after} s.",
            extra={"headers": {"Retry-After": str(retry_after)}},
        )
    return caller


CallerDep = Annotated[Caller, Depends(get_caller)]


def require_scope(scope: Scope) -> Any:
    """A dependency (for `dependencies=[...]`) that answers 403 without the scope."""

    async def check(caller: CallerDep) -> Caller:
        if not caller.allows(scope):
            raise Forbidden(f"This API key lacks the {scope.value!r} scope.")
        return caller

    return Depends(check)


async def _scope_by_method(request: Request, caller: CallerDep) -> Caller:
    scope = Scope.READ if request.method in READ_METHODS else Scope.WRITE
    if not caller.allows(scope):
        raise Forbidden(f"This API key lacks the {scope.value!r} scope.")
    return caller


# Resource routers: GET reads (`read`), every other method changes something (`write`).
require_scope_by_method: Any = Depends(_scope_by_method)


async def _all_knowledge_bases(caller: CallerDep) -> Caller:
    if caller.knowledge_bases is not None:
        raise Forbidden("This API key is limited to some knowledge bases; it cannot create one.")
    return caller


# For routes that act on the project as a whole (creating a knowledge base).
require_all_knowledge_bases: Any = Depends(_all_knowledge_bases)


async def get_visible_documents(caller: CallerDep) -> ColumnElement[bool]:
    """The condition on `documents` for what the caller may read (see app/auth/acl.py)."""
    return visible_documents_clause(caller.principals)


VisibleDocumentsDep = Annotated[ColumnElement[bool], Depends(get_visible_documents)]
