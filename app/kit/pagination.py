"""Keyset pagination: opaque cursors over an ordered key, and the Page[X] envelope."""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Any, Generic, TypeVar

from fastapi import Query
from pydantic import BaseModel
from sqlalchemy import ColumnElement, true, tuple_

from app.kit.errors import ValidationFailed
from app.kit.nesting import nesting_problem

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
        raw = base64.urlsafe_b64decode(padded.encode())
        if nesting_problem(raw) is not None:
            raise ValueError("not a cursor")
        key = json.loads(raw)
    except ValueError as exc:
        raise ValidationFailed("The cursor is not valid; start again without one.") from exc
    if not isinstance(key, list) or len(key) != arity:
        raise ValidationFailed("The cursor is not valid for this listing.")
    return key


TimeKey = tuple[datetime, uuid.UUID]


def decode_time_cursor(cursor: str | None) -> TimeKey | None:
    """The (created_at, id) key inside a cursor of a listing ordered by creation."""
    if cursor is None:
        return None
    created_at, last_id = decode_cursor(cursor, arity=2)
    try:
        return datetime.fromisoformat(created_at), uuid.UUID(last_id)
    except (TypeError, ValueError) as exc:
        raise ValidationFailed("The cursor is not valid for this listing.") from exc


def encode_time_cursor(created_at: datetime, row_id: uuid.UUID) -> str:
    return encode_cursor([created_at.isoformat(), str(row_id)])


def after_key(
    columns: Sequence[Any], key: Sequence[Any] | None, *, descending: bool = False
) -> ColumnElement[bool]:
    """Rows strictly past `key` in the order of `columns` (a row-value comparison)."""
    if key is None:
        return true()
    left, right = tuple_(*columns), tuple_(*key)
    return left < right if descending else left > right
