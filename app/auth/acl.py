"""Document access lists: who may read a document, as one SQL condition on `documents`.

A document with no `access` is readable by every caller of its project; one with
`access: {principals: [...]}` by callers holding at least one of those principals. The
condition goes inside the queries (search candidates, listings, reads), before any LIMIT, so a
caller still gets `top_k` hits it may read.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any

from pydantic import AfterValidator, Field, field_validator
from sqlalchemy import ColumnElement, Text, func, literal, or_, true
from sqlalchemy.dialects.postgresql import ARRAY

from app.kit.schemas import RequestModel
from app.kit.strings import check_text
from app.models import Document

MAX_PRINCIPALS = 100

Principal = Annotated[
    str,
    Field(
        min_length=1,
        max_length=256,
        pattern=r"^[^\s,]+$",
        description="A user, group or role name, e.g. `group:hr`; no spaces or commas.",
        examples=["group:hr"],
    ),
    AfterValidator(check_text),
]


class DocumentAccess(RequestModel):
    """Who may read a document."""

    principals: list[Principal] = Field(
        max_length=MAX_PRINCIPALS,
        description="Callers holding any of these principals may read the document; an empty "
        "list leaves it to admins. A set: stored sorted, without repeats.",
    )

    @field_validator("principals")
    @classmethod
    def _as_a_set(cls, principals: list[str]) -> list[str]:
        # One form per set: the same bytes uploaded with the same readers are the same
        # document, whatever order or repeats the list came with.
        return sorted(set(principals))


@functools.lru_cache(maxsize=1024)
def visible_documents_clause(principals: frozenset[str] | None) -> ColumnElement[bool]:
    """True for the rows of `documents` a caller with these principals may read (one immutable
    expression per set of principals, built once: every read and search of a key needs it)."""
    return visible_access_clause(Document.__table__.c.access, principals)


def visible_access_clause(
    access: ColumnElement[Any], principals: frozenset[str] | None
) -> ColumnElement[bool]:
    """True where an access list column (a document's, or an event's copy of it) lets a caller
    with these principals read the row."""
    if principals is None:
        return true()
    public = or_(access.is_(None), func.jsonb_typeof(access) == "null")
    if not principals:
        return public
    held = literal(sorted(principals), ARRAY(Text))
    return or_(public, access["principals"].has_any(held))
