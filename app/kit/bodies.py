"""Request bodies read by hand: size-limited while streaming, validated straight from JSON bytes.

FastAPI's own body parameters read the whole body whatever its size, build Python objects with
`json.loads` and validate those; a bulk body of 10 MB is parsed about twice as fast, and held
once instead of twice, by pydantic's `model_validate_json` on the bytes.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any, TypeVar

from fastapi import Depends, Request
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.kit.endpoints import EndpointFlag
from app.kit.errors import PayloadTooLarge, UnsupportedMediaType, ValidationFailed
from app.kit.nesting import nesting_problem

M = TypeVar("M", bound=BaseModel)

# A route that reads its body itself, with its own configured limit (`limited_stream`): the
# service-wide limit of `JsonBodyLimit` does not apply to it.
reads_body_by_hand = EndpointFlag("reads_body_by_hand")


class BodyTooLarge(HTTPException):
    """Raised while FastAPI reads a body: an HTTPException, which FastAPI passes on to the
    problem handlers (any other error there becomes its 400 "error parsing the body")."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"The request body is larger than the limit of {limit} bytes.")


class UnreadableJson(HTTPException):
    """A JSON body Python's json module must not be given (too deep, not UTF-8): raised while
    FastAPI reads it, as an HTTPException for the reason BodyTooLarge is one; FastAPI turned
    the RecursionError or UnicodeDecodeError into an undeclared 400."""

    def __init__(self, problem: str) -> None:
        super().__init__(422, f"The request body cannot be read as JSON: it is {problem}.")
        self.extra = {
            "errors": [{"loc": ["body"], "msg": f"The body is {problem}", "type": "json_invalid"}]
        }


class JsonBodyLimit:
    """ASGI middleware: a body over `limit` bytes is a 413, by its Content-Length before any
    byte is read, else as soon as the bytes received pass it, so FastAPI never holds (and
    parses) more. Starlette's own `max_body_size` answers a declared oversize body in plain
    text, replacing the problem+json a handler made, hence this.

    A JSON body is gathered here and handed on whole once its nesting and encoding are known to
    be fit for `json.loads` (app/kit/nesting.py); FastAPI gathers it whole anyway.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        received = 0
        complete = False

        async def limited_receive() -> Message:
            nonlocal received, complete
            # Called once routing chose the endpoint: bodies are read by the route.
            if complete or reads_body_by_hand.marks(scope):
                return await receive()
            if received == 0 and _declared_length(scope) > self.limit:
                raise BodyTooLarge(self.limit)
            if not _is_json(scope):
                message = await receive()
                if message["type"] == "http.request":
                    received += len(message.get("body", b""))
                    if received > self.limit:
                        raise BodyTooLarge(self.limit)
                return message
            pieces: list[bytes] = []
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return message  # a disconnect: FastAPI stops reading
                pieces.append(message.get("body", b""))
                received += len(pieces[-1])
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
                if not message.get("more_body", False):
                    break
            complete = True
            body = b"".join(pieces)
            problem = nesting_problem(body)
            if problem is not None:
                raise UnreadableJson(problem)
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, limited_receive, send)


def _is_json(scope: Scope) -> bool:
    """Whether the request declares a body FastAPI parses with `json.loads`."""
    for name, value in scope["headers"]:
        if name == b"content-type":
            media: bytes = value.split(b";")[0].strip().lower()
            return media == b"application/json" or (
                media.startswith(b"application/") and media.endswith(b"+json")
            )
    return False


def _declared_length(scope: Scope) -> int:
    for name, value in scope["headers"]:
        if name == b"content-length" and value.isdigit():
            return int(value)
    return 0


def json_request_body(model: type[BaseModel]) -> dict[str, Any]:
    """The `openapi_extra` of a route that reads a JSON `model` by hand: the spec still names
    its body (app/main.py puts the model's schema in components)."""
    reference = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {
        "requestBody": {"required": True, "content": {"application/json": {"schema": reference}}}
    }


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(f"The upload is larger than the limit of {limit} bytes.")


async def limited_stream(request: Request, limit: int) -> AsyncGenerator[bytes, None]:
    """The request body, cut off with 413 as soon as it passes `limit` bytes."""
    if _declared_length(request.scope) > limit:
        raise _too_large(limit)
    received = 0
    async for piece in request.stream():
        received += len(piece)
        if received > limit:
            raise _too_large(limit)
        yield piece


def invalid_body(exc: ValidationError, what: str) -> ValidationFailed:
    """The 422 of a body that is not `what`, listing pydantic's errors as FastAPI's would."""
    errors = [
        {"loc": ["body", *map(str, err["loc"])], "msg": err["msg"], "type": err["type"]}
        for err in exc.errors()
    ]
    return ValidationFailed(
        f"The request body is not {what}: "
        + "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors[:5]),
        extra={"errors": errors},
    )


def require_json(request: Request, hint: str) -> None:
    """415 unless the body is declared as JSON."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise UnsupportedMediaType(f"Send application/json: {hint}.")


async def _declared_json(request: Request) -> None:
    # FastAPI parses a body as JSON only under these types; any other body reaches validation
    # as raw bytes and comes back as a 422 about its shape, when the fault is its media type.
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    maintype, _, subtype = content_type.partition("/")
    if maintype != "application" or not (subtype == "json" or subtype.endswith("+json")):
        raise UnsupportedMediaType("Send application/json: a JSON object.")


# For routes whose JSON body FastAPI reads itself: 415, not 422, for a body of another type.
require_json_body: Any = Depends(_declared_json)


async def read_json_model(request: Request, model: type[M], *, limit: int, what: str) -> M:
    """The body as `model`, at most `limit` bytes (413 beyond, 422 when it is not `what`)."""
    body = b"".join([piece async for piece in limited_stream(request, limit)])
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise invalid_body(exc, what) from exc
