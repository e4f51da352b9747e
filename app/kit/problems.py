"""RFC 9457 problem+json: the one shape of every error body, and the handlers that produce it."""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.db.outage import is_outage
from app.kit.errors import PROBLEM_BASE, AppError, DatabaseUnavailable

logger = logging.getLogger(__name__)

PROBLEM_MEDIA_TYPE = "application/problem+json"

_HTTP_TYPES = {
    400: ("bad-request", "Bad request"),
    401: ("unauthorized", "Authentication required"),
    403: ("forbidden", "Not allowed"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    406: ("not-acceptable", "Not acceptable"),
    409: ("conflict", "Conflict"),
    413: ("payload-too-large", "Payload too large"),
    415: ("unsupported-media-type", "Unsupported media type"),
    422: ("validation-error", "Validation failed"),
    429: ("rate-limited", "Too many requests"),
    503: ("service-unavailable", "Service unavailable"),
}
_INTERNAL = ("internal-error", "Internal server error")


class FieldError(BaseModel):
    """One invalid input field: where it is, what is wrong, and a machine-readable code."""

    loc: list[str | int]
    msg: str
    type: str


class Problem(BaseModel):
    """An RFC 9457 problem detail."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(examples=[PROBLEM_BASE + "not-found"])
    title: str
    status: int
    detail: str
    instance: str | None = None
    errors: list[FieldError] | None = None


class ProblemJSONResponse(JSONResponse):
    """JSON that renders whatever client input a problem echoes (a filter key, a field name)."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            # A lone surrogate is not UTF-8; escaped (\\ud800) the body is valid JSON again.
            return json.dumps(content, allow_nan=False, separators=(",", ":")).encode("ascii")


def problem_response(
    status: int,
    type_: str,
    title: str,
    detail: str,
    *,
    instance: str | None = None,
    extra: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """Build a problem+json response; `type_` is a slug under PROBLEM_BASE."""
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + type_,
        "title": title,
        "status": status,
        "detail": detail,
    }
    if instance:
        body["instance"] = instance
    body.update(extra or {})
    return ProblemJSONResponse(
        jsonable_encoder(body), status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=headers
    )


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses=` entries declaring problem+json bodies for the given statuses."""
    declared = {*statuses, 500}
    return {
        status: {
            "model": Problem,
            "description": _HTTP_TYPES.get(status, _INTERNAL)[1],
            "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
        for status in sorted(declared)
    }


PROBLEM_REF = "#/components/schemas/Problem"


def answered_statuses(path: str, method: str, operation: dict[str, Any]) -> set[int]:
    """The error statuses an operation can answer whatever its route does, by what runs
    before and around every route: authentication and rate limits (401, 403, 429; a project
    header naming another project is a 404), the database (503, and 409 when Postgres rolls a
    write back in a deadlock), body limits and parsing (413, 415, 422; 400 for a malformed
    multipart body), the HTTP server's own 400 for a request line or header it cannot parse
    (app/kit/protocols.py: any operation's URL can carry one), and the catch-all 500."""
    statuses = {400, 500}
    if path.startswith("/v1/"):
        statuses |= {401, 403, 404, 422, 429, 503}
        if method != "get":
            statuses.add(409)
    body = operation.get("requestBody")
    if body is not None:
        statuses |= {413, 415, 422}
    return statuses


def declare_problems(schema: dict[str, Any]) -> None:
    """Every 4xx and 5xx response of every operation as problem+json, in the OpenAPI document.

    FastAPI adds a 422 with its `HTTPValidationError` (application/json) to each operation that
    declares none, and `problem_responses` makes FastAPI list application/json beside
    problem+json; the handlers answer neither. A response already declaring problem+json keeps
    its schema (a Problem with extension members, as /readyz's 503). Statuses a route does
    not declare but can answer (`answered_statuses`) are added here, the one place that knows
    what the machinery around the routes answers.
    """
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for status in sorted(answered_statuses(path, method, operation)):
                responses.setdefault(
                    str(status),
                    {
                        "description": _HTTP_TYPES.get(status, _INTERNAL)[1],
                        "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": PROBLEM_REF}}},
                    },
                )
            for code, response in responses.items():
                if not code.startswith(("4", "5")):
                    continue
                content = response.get("content", {})
                declared = content.get(PROBLEM_MEDIA_TYPE, {"schema": {"$ref": PROBLEM_REF}})
                own = _own_error_format(content)
                # A route speaking another product's API (Dify's) keeps its error objects; its
                # other failures are still problems.
                response["content"] = {PROBLEM_MEDIA_TYPE: declared, **own}
                if code == "422" and response.get("description") == "Validation Error":
                    response["description"] = _HTTP_TYPES[422][1]
    schemas = schema.get("components", {}).get("schemas", {})
    schemas.pop("HTTPValidationError", None)
    # ValidationError is HTTPValidationError's item: gone with it unless something else uses it.
    if '"#/components/schemas/ValidationError"' not in json.dumps(schema):
        schemas.pop("ValidationError", None)


def _own_error_format(content: dict[str, Any]) -> dict[str, Any]:
    """A route's own JSON error object (not FastAPI's HTTPValidationError, not a problem)."""
    if PROBLEM_MEDIA_TYPE in content:
        return {}
    declared = content.get("application/json", {})
    ref = str(declared.get("schema", {}).get("$ref", ""))
    if not ref or ref.endswith(("/HTTPValidationError", "/Problem")):
        return {}
    return {"application/json": declared}


async def _app_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AppError)
    if isinstance(exc, DatabaseUnavailable):
        # One line, no traceback: an outage is not a bug, and /readyz says the same.
        logger.warning(
            "database unavailable on %s %s: %s",
            request.method,
            request.url.path,
            exc.__cause__ or exc.detail,
        )
    headers = exc.extra.pop("headers", None) if "headers" in exc.extra else None
    return problem_response(
        exc.status,
        exc.type_,
        exc.title,
        exc.detail,
        instance=request.url.path,
        extra=exc.extra,
        headers=headers,
    )


def _field_loc(loc: tuple[Any, ...]) -> list[str | int]:
    return [part if isinstance(part, int) else str(part) for part in loc]


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {
            "loc": _field_loc(tuple(err.get("loc", ()))),
            "msg": err.get("msg", ""),
            "type": err.get("type", ""),
        }
        for err in exc.errors()
    ]
    summary = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors[:5])
    return problem_response(
        422,
        "validation-error",
        "Validation failed",
        f"The request is invalid: {summary}",
        instance=request.url.path,
        extra={"errors": errors},
    )


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    type_, title = _HTTP_TYPES.get(exc.status_code, ("http-error", "HTTP error"))
    if exc.status_code == 404 and exc.detail == "Not Found":
        detail = f"No route matches {request.method} {request.url.path}"
    else:
        detail = str(exc.detail)
    return problem_response(
        exc.status_code,
        type_,
        title,
        detail,
        instance=request.url.path,
        extra=getattr(exc, "extra", None),
        headers=dict(exc.headers) if exc.headers else None,
    )


UNIQUE_VIOLATION = "23505"
FOREIGN_KEY_VIOLATION = "23503"
# Deadlock detected; could not serialize access.
RETRYABLE = frozenset({"40P01", "40001"})


async def _integrity_error(request: Request, exc: Exception) -> JSONResponse:
    # Checks in the services give the friendly message; this catches the race between two
    # requests that both passed the check, which the database settles.
    assert isinstance(exc, IntegrityError)
    if getattr(exc.orig, "sqlstate", None) == UNIQUE_VIOLATION:
        return problem_response(
            409,
            "conflict",
            "Conflict",
            "Another request created a resource with the same unique key first.",
            instance=request.url.path,
        )
    if getattr(exc.orig, "sqlstate", None) == FOREIGN_KEY_VIOLATION:
        # What the request wrote into (a knowledge base, a document) was deleted by another
        # request after this one found it: a DELETE racing an upload (QA).
        return problem_response(
            404,
            "not-found",
            "Not found",
            "What this request writes into was deleted by another request while it ran; "
            "nothing of it was kept.",
            instance=request.url.path,
        )
    return await _unhandled(request, exc)


# Text the database cannot take: NUL (22021 character_not_in_repertoire) and what jsonb cannot
# translate (22P05 untranslatable_character, e.g. "\u0000"). Request models refuse such text
# first (app/kit/strings.py); this keeps a field they miss a 422 rather than a 500.
UNSTORABLE_TEXT = frozenset({"22021", "22P05"})


async def _database_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, DBAPIError)
    if is_outage(exc):
        return await _database_unavailable(request, exc)
    if getattr(exc.orig, "sqlstate", None) in UNSTORABLE_TEXT:
        logger.warning(
            "unstorable text reached the database on %s %s", request.method, request.url.path
        )
        return problem_response(
            422,
            "validation-error",
            "Validation failed",
            "The request holds text the database cannot store: a NUL character (\\u0000) "
            "or a lone UTF-16 surrogate.",
            instance=request.url.path,
        )
    if getattr(exc.orig, "sqlstate", None) in RETRYABLE:
        # Two transactions waited on each other (a delete racing a document's ingestion, seen
        # in QA): Postgres rolled this one back whole; nothing of it was kept, and the same
        # request again succeeds.
        logger.warning("%s on %s %s", exc.orig, request.method, request.url.path)
        return problem_response(
            409,
            "retryable-conflict",
            "Conflict with a concurrent change",
            "A concurrent change to the same rows made the database roll this request back; "
            "nothing of it was kept. Send it again.",
            instance=request.url.path,
            headers={"Retry-After": "1"},
        )
    return await _unhandled(request, exc)


async def _database_unavailable(request: Request, exc: Exception) -> JSONResponse:
    # A pool with no connection to spare, or a disconnect that reached here unconverted.
    if isinstance(exc, PoolTimeout):
        detail = "The database is busy: no connection became free in time; try again shortly."
        return await _app_error(request, DatabaseUnavailable(detail))
    return await _app_error(request, DatabaseUnavailable())


async def _unhandled(request: Request, exc: Exception) -> JSONResponse:
    if is_outage(exc):
        return await _database_unavailable(request, exc)
    # The body never carries exception text; the log has the traceback.
    logger.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem_response(
        500,
        "internal-error",
        "Internal server error",
        "The server failed to process the request; the error was logged.",
        instance=request.url.path,
    )


def install_problem_handlers(app: FastAPI) -> None:
    """Route every error the app can raise to a problem+json answer."""
    app.add_exception_handler(AppError, _app_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(IntegrityError, _integrity_error)
    app.add_exception_handler(DBAPIError, _database_error)
    app.add_exception_handler(PoolTimeout, _database_unavailable)
    app.add_exception_handler(Exception, _unhandled)
