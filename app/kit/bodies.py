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

from app.kit.errors import PayloadTooLarge, UnsupportedMediaType, ValidationFailed

M = TypeVar("M", bound=BaseModel)


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
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
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
