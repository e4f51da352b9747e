"""Statements built once per shape and condition structure, run again with each request's values.

Building a SQLAlchemy expression tree, and then its cache key, costs more Python than running
the statement on a hot path: a search's fused statement took some 12 ms to build, a document
read's a fifth of the request's CPU. A statement here is built once for a shape (what the
caller says decides its structure) and the structure of a condition (a filter, the caller's
document visibility), and reused: its own parameters are named `bindparam`s that the caller
supplies each time, and the condition's values are moved onto the keys of the parameters the
cached statement was built with. SQLAlchemy's cache key of the condition tells two conditions
of the same structure apart from their values and lists their bound parameters in the same
order for both.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from sqlalchemy import ColumnElement
from sqlalchemy.sql.elements import BindParameter

S = TypeVar("S")


class StatementCache(Generic[S]):
    """Up to `size` statements by (shape, condition structure); full, it starts over rather
    than grow without bound (shapes vary with request options)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._entries: dict[tuple[Hashable, Any], tuple[S, tuple[BindParameter[Any], ...]]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()

    def get(
        self,
        shape: Hashable,
        condition: ColumnElement[Any],
        build: Callable[[], S],
        values: dict[str, Any],
    ) -> tuple[S, dict[str, Any]]:
        """The statement for `shape` and the condition's structure, and `values` with the
        condition's own values added under the keys the statement binds them by.

        `build` makes the statement with `condition` in it; every other value that varies
        between calls of one shape must be a named `bindparam` supplied in `values`."""
        key = condition._generate_cache_key()
        if key is None:  # an element SQLAlchemy cannot key: built for this call alone
            return build(), values
        entry_key = (shape, key.key)
        entry = self._entries.get(entry_key)
        if entry is None:
            if len(self._entries) >= self.size:
                self._entries.clear()
            entry = self._entries[entry_key] = (build(), tuple(key.bindparams))
        statement, built_with = entry
        for old, new in zip(built_with, key.bindparams, strict=True):
            values[old.key] = new.effective_value
        return statement, values
