"""Keyset pagination: opaque cursors over an ordered key, and the Page[X] envelope."""

from __future__ import annotations

import base64
import json
from typing import Annotated, Any, Generic, TypeVar

from fastapi import Query
from pydantic import BaseModel

from app.kit.errors import ValidationFailed

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    """One page of a listing; pass `next_cursor` back as `cursor` for the next one."""

    items: list[T]
    total: int
    limit: int
    next_cursor: str | None = None


class PageParams(BaseModel):
    limit: int
    cursor: str | None


def page_params(
    limit: Annotated[int, Query(ge=1, le=200, description="Items per page (1-200).")] = 20,
    cursor: Annotated[
        str | None, Query(max_length=512, description="`next_cursor` of the previous page.")
    ] = None,
) -> PageParams:
    return PageParams(limit=limit, cursor=cursor)


def encode_cursor(key: list[Any]) -> str:
    """An opaque, URL-safe cursor for the last row's sort key."""
    raw = json.dumps(key, default=str, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, *, arity: int) -> list[Any]:
    """The sort key inside a cursor; a tampered or foreign cursor is a 422, not a 500."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        key = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidationFailed("The cursor is not valid; start again without one.") from exc
    if not isinstance(key, list) or len(key) != arity:
        raise ValidationFailed("The cursor is not valid for this listing.")
    return key
