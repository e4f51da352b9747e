"""The filter language: Mongo-like JSON compiled to one SQLAlchemy boolean clause.

A filter is a JSON object. Each key is a field (`doc_id`, `metadata.year`, ...) or a logical
operator (`$and`, `$or`, `$not`). A field maps to a value (shorthand for `$eq`) or to an object
of operators (`$eq $ne $in $nin $gt $gte $lt $lte $exists $contains`, and `$not` wrapping
another operator object); several keys in one object are AND-ed.

Every predicate is two-valued: a comparison with a missing field is false, so `$ne`, `$nin`
and `$not` are exact complements (a missing field satisfies `$ne`, as in MongoDB). Values are
always bound as parameters; metadata keys must match a strict pattern. Anything the compiler
does not understand raises `FilterError` (a 422), never a clause that silently matches nothing.

Callers describe their fields once in a `FieldMap` (columns and their kinds, plus the JSONB
columns that `metadata.<key>` reads), so search, document listings and delete-by-filter share
one language. See docs/search.md for the reference.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Text,
    and_,
    case,
    cast,
    false,
    func,
    literal,
    literal_column,
    not_,
    or_,
    true,
    type_coerce,
)
from sqlalchemy.dialects.postgresql import JSONB

from app.kit.errors import ValidationFailed
from app.kit.strings import unstorable

MAX_DEPTH = 8
MAX_CONDITIONS = 100
MAX_LIST_VALUES = 1000
MAX_STRING_CHARS = 4096
MAX_METADATA_PATH = 8
METADATA_PREFIX = "metadata."
METADATA_SEGMENT = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$")

Loc = tuple[str | int, ...]
Scalar = str | int | float | bool


class FilterError(ValidationFailed):
    """A filter the compiler cannot accept; `loc` points at the offending part."""

    def __init__(self, message: str, loc: Loc) -> None:
        where = ".".join(str(part) for part in loc) or "filter"
        super().__init__(
            f"Invalid filter at {where}: {message}",
            extra={"errors": [{"loc": list(loc), "msg": message, "type": "filter_invalid"}]},
        )


class FieldKind(StrEnum):
    UUID = "uuid"
    TEXT = "text"
    CHOICE = "one-of"
    INTEGER = "integer"
    DATETIME = "datetime"
    TEXT_LIST = "text list"
    PAGE_RANGE = "page range"


@dataclass(frozen=True, slots=True)
class Field:
    """A filterable column. `end` is the upper column of a PAGE_RANGE field; `choices` are the
    values a CHOICE field can hold (any other value is refused: it could only match nothing)."""

    kind: FieldKind
    column: ColumnElement[Any]
    nullable: bool = False
    end: ColumnElement[Any] | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FieldMap:
    """The fields a filter may name, and the JSONB columns `metadata.<key>` reads, in order.

    With several metadata columns the first one holding the key wins (search reads the chunk's
    metadata, then its document's).
    """

    fields: Mapping[str, Field]
    metadata: Sequence[ColumnElement[Any]] = ()


COMPARISONS = ("$eq", "$ne", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$exists", "$contains")
FIELD_OPERATORS = (*COMPARISONS, "$not")
LOGICAL = ("$and", "$or", "$not")
ORDERING = ("$gt", "$gte", "$lt", "$lte")

_ALLOWED: dict[FieldKind, tuple[str, ...]] = {
    FieldKind.UUID: ("$eq", "$ne", "$in", "$nin", "$exists"),
    FieldKind.TEXT: (*COMPARISONS,),
    FieldKind.CHOICE: ("$eq", "$ne", "$in", "$nin"),
    FieldKind.INTEGER: tuple(op for op in COMPARISONS if op != "$contains"),
    FieldKind.DATETIME: tuple(op for op in COMPARISONS if op != "$contains"),
    FieldKind.TEXT_LIST: ("$eq", "$ne", "$in", "$nin", "$exists", "$contains"),
    FieldKind.PAGE_RANGE: tuple(op for op in COMPARISONS if op != "$contains"),
}


def compile_filter(spec: Any, fields: FieldMap) -> ColumnElement[bool]:
    """Compile a filter (the parsed JSON) into a boolean clause; None or {} match everything."""
    if spec is None:
        return true()
    compiler = _Compiler(fields)
    return compiler.object(spec, (), depth=0)


def metadata_keys(spec: Any) -> list[str]:
    """The top-level metadata keys a (valid) filter names, sorted: `year` for
    `metadata.year` and `metadata.year.month` alike."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, Mapping):
            for key, value in node.items():
                if key.startswith(METADATA_PREFIX):
                    found.add(key[len(METADATA_PREFIX) :].split(".")[0])
                elif key in LOGICAL:
                    walk(value)

    walk(spec)
    return sorted(found)


def matches_all_somewhere(spec: Any) -> bool:
    """Whether a (valid) filter holds an empty object at any level (`{}`, `{"$and": [{}]}`,
    `{"$not": {"$not": {}}}`): a part that matches everything, which a destructive filter
    should state explicitly instead."""

    def walk(node: Any) -> bool:
        if isinstance(node, list):
            return any(walk(item) for item in node)
        if isinstance(node, Mapping):
            return not node or any(walk(value) for key, value in node.items() if key in LOGICAL)
        return False

    return walk(spec)


def field_names(fields: FieldMap) -> list[str]:
    """The names a filter may use, for error messages and documentation."""
    names = sorted(fields.fields)
    if fields.metadata:
        names.append(METADATA_PREFIX + "<key>")
    return names


class _Compiler:
    def __init__(self, fields: FieldMap) -> None:
        self.fields = fields
        self.conditions = 0

    def object(self, spec: Any, loc: Loc, *, depth: int) -> ColumnElement[bool]:
        if not isinstance(spec, Mapping):
            raise FilterError(f"expected an object, got {_json_type(spec)}", loc)
        if depth > MAX_DEPTH:
            raise FilterError(f"nested deeper than {MAX_DEPTH} levels", loc)
        clauses: list[ColumnElement[bool]] = []
        for key, value in spec.items():
            if not isinstance(key, str):  # pragma: no cover - JSON keys are strings
                raise FilterError("keys must be strings", loc)
            here = (*loc, key)
            if key.startswith("$"):
                clauses.append(self.logical(key, value, here, depth=depth))
            else:
                clauses.append(self.field(key, value, here, depth=depth))
        if not clauses:
            return true()
        return and_(*clauses) if len(clauses) > 1 else clauses[0]

    def logical(self, op: str, value: Any, loc: Loc, *, depth: int) -> ColumnElement[bool]:
        if op == "$not":
            return not_(self.object(value, loc, depth=depth + 1))
        if op in ("$and", "$or"):
            if not isinstance(value, list) or not value:
                raise FilterError(f"{op} takes a non-empty list of filter objects", loc)
            parts = [
                self.object(item, (*loc, index), depth=depth + 1)
                for index, item in enumerate(value)
            ]
            return and_(*parts) if op == "$and" else or_(*parts)
        if op in COMPARISONS:
            raise FilterError(f"{op} must be applied to a field: {{field: {{{op}: value}}}}", loc)
        raise FilterError(
            f"unknown operator {op!r}; logical operators are {', '.join(LOGICAL)}", loc
        )

    def field(self, name: str, condition: Any, loc: Loc, *, depth: int) -> ColumnElement[bool]:
        target = self.target(name, loc)
        if isinstance(condition, Mapping):
            return self.operators(target, condition, loc, depth=depth)
        return self.leaf(target, "$eq", condition, loc)

    def operators(
        self, target: Field | _Metadata, condition: Mapping[Any, Any], loc: Loc, *, depth: int
    ) -> ColumnElement[bool]:
        if depth > MAX_DEPTH:
            raise FilterError(f"nested deeper than {MAX_DEPTH} levels", loc)
        if not condition:
            raise FilterError("an empty condition; give a value or an operator object", loc)
        clauses: list[ColumnElement[bool]] = []
        for op, value in condition.items():
            here = (*loc, op)
            if not isinstance(op, str) or not op.startswith("$"):
                raise FilterError(
                    "a condition object holds operators only (objects are not compared as "
                    "values); did you mean a nested metadata key `metadata.a.b`?",
                    here,
                )
            if op == "$not":
                if not isinstance(value, Mapping):
                    raise FilterError("$not on a field takes an operator object", here)
                clauses.append(not_(self.operators(target, value, here, depth=depth + 1)))
            elif op in COMPARISONS:
                clauses.append(self.leaf(target, op, value, here))
            else:
                raise FilterError(
                    f"unknown operator {op!r}; field operators are {', '.join(FIELD_OPERATORS)}",
                    here,
                )
        return and_(*clauses) if len(clauses) > 1 else clauses[0]

    def target(self, name: str, loc: Loc) -> Field | _Metadata:
        if name in self.fields.fields:
            return self.fields.fields[name]
        if name.startswith(METADATA_PREFIX) and self.fields.metadata:
            path = name[len(METADATA_PREFIX) :].split(".")
            if len(path) > MAX_METADATA_PATH or not all(METADATA_SEGMENT.match(p) for p in path):
                raise FilterError(
                    f"invalid metadata key {name!r}: up to {MAX_METADATA_PATH} dot-separated "
                    "segments of 1-64 characters [A-Za-z0-9_-], not starting with '-'",
                    loc,
                )
            return _Metadata(tuple(path))
        raise FilterError(
            f"unknown field {name!r}; fields are {', '.join(field_names(self.fields))}", loc
        )

    def leaf(self, target: Field | _Metadata, op: str, value: Any, loc: Loc) -> ColumnElement[bool]:
        self.conditions += 1
        if self.conditions > MAX_CONDITIONS:
            raise FilterError(f"more than {MAX_CONDITIONS} conditions", loc)
        if op == "$exists" and not isinstance(value, bool):
            raise FilterError("$exists takes true or false", loc)
        if isinstance(target, _Metadata):
            return _metadata_clause(self.fields.metadata, target.path, op, value, loc)
        if op not in _ALLOWED[target.kind]:
            raise FilterError(
                f"{op} does not apply to a {target.kind} field; use "
                f"{', '.join(_ALLOWED[target.kind])}",
                loc,
            )
        return _column_clause(target, op, value, loc)


@dataclass(frozen=True, slots=True)
class _Metadata:
    path: tuple[str, ...]


# --- typed columns -------------------------------------------------------------------------


def _column_clause(field: Field, op: str, value: Any, loc: Loc) -> ColumnElement[bool]:
    column = field.column
    if op == "$exists":
        if field.kind is FieldKind.TEXT_LIST:
            present = func.coalesce(func.cardinality(column), 0) > 0
        else:
            present = column.is_not(None)
        return present if value else not_(present)
    if field.kind is FieldKind.TEXT_LIST:
        return _list_clause(field, op, value, loc)
    if field.kind is FieldKind.PAGE_RANGE:
        return _page_clause(field, op, value, loc)
    if op in ("$in", "$nin"):
        values = [_typed(field, item, (*loc, i)) for i, item in enumerate(_list(value, loc))]
        clause = _two_valued(column.in_(values), field.nullable)
        return clause if op == "$in" else not_(clause)
    if op == "$contains":
        needle = _string(value, loc)
        return _two_valued(
            func.strpos(func.lower(column), literal(needle.lower(), Text)) > 0, field.nullable
        )
    typed = _typed(field, value, loc)
    if op == "$ne":
        return not_(_two_valued(column == typed, field.nullable))
    return _two_valued(_compare(column, op, typed), field.nullable)


def _list_clause(field: Field, op: str, value: Any, loc: Loc) -> ColumnElement[bool]:
    # Array fields follow MongoDB: `$eq x` means "has an element equal to x".
    column = field.column
    if op in ("$in", "$nin"):
        values = [_string(item, (*loc, i)) for i, item in enumerate(_list(value, loc))]
        overlap = column.op("&&", is_comparison=True)(literal(values, column.type))
        clause = _two_valued(overlap, field.nullable)
        return clause if op == "$in" else not_(clause)
    element = _string(value, loc)
    has = _two_valued(
        column.op("@>", is_comparison=True)(literal([element], column.type)), field.nullable
    )
    return not_(has) if op == "$ne" else has


def _page_clause(field: Field, op: str, value: Any, loc: Loc) -> ColumnElement[bool]:
    # A chunk covers pages [start, end]; `page: 3` means "covers page 3".
    assert field.end is not None
    start, end = field.column, func.coalesce(field.end, field.column)
    if op in ("$in", "$nin"):
        pages = [_integer(item, (*loc, i)) for i, item in enumerate(_list(value, loc))]
        covers = or_(*[and_(start <= page, end >= page) for page in pages])
        clause = func.coalesce(covers, false())
        return clause if op == "$in" else not_(clause)
    page = _integer(value, loc)
    by_op: dict[str, ColumnElement[bool]] = {
        "$eq": and_(start <= page, end >= page),
        "$ne": and_(start <= page, end >= page),
        "$gt": end > page,
        "$gte": end >= page,
        "$lt": start < page,
        "$lte": start <= page,
    }
    clause = func.coalesce(by_op[op], false())
    return not_(clause) if op == "$ne" else clause


_OPERATORS = {"$eq": "=", "$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}


def _compare(column: ColumnElement[Any], op: str, value: Any) -> ColumnElement[bool]:
    return column.op(_OPERATORS[op], is_comparison=True)(value)


def _two_valued(clause: ColumnElement[bool], nullable: bool) -> ColumnElement[bool]:
    return func.coalesce(clause, false()) if nullable else clause


def _typed(field: Field, value: Any, loc: Loc) -> Any:
    kind = field.kind
    if kind is FieldKind.UUID:
        if not isinstance(value, str):
            raise FilterError("expected a UUID string", loc)
        try:
            return uuid.UUID(value)
        except ValueError:
            raise FilterError("expected a UUID string", loc) from None
    if kind is FieldKind.INTEGER:
        return _integer(value, loc)
    if kind is FieldKind.DATETIME:
        return _datetime(value, loc)
    if kind is FieldKind.CHOICE and value not in field.choices:
        raise FilterError(f"expected one of {', '.join(field.choices)}", loc)
    return _string(value, loc)


def _integer(value: Any, loc: Loc) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FilterError(f"expected an integer, got {_json_type(value)}", loc)
    if abs(value) > 2**31 - 1:
        raise FilterError("integer out of range", loc)
    return value


def _string(value: Any, loc: Loc) -> str:
    if not isinstance(value, str):
        raise FilterError(f"expected a string, got {_json_type(value)}", loc)
    if len(value) > MAX_STRING_CHARS:
        raise FilterError(f"strings are limited to {MAX_STRING_CHARS} characters", loc)
    reason = unstorable(value)
    if reason is not None:
        # The database cannot compare such text (a 500), so it matches nothing stored.
        raise FilterError(f"the string {reason}", loc)
    return value


def _datetime(value: Any, loc: Loc) -> datetime:
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            try:
                parsed = datetime.combine(date.fromisoformat(value), datetime.min.time())
            except ValueError:
                parsed = None
        if parsed is not None:
            parsed = parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
            try:
                # The database compares in UTC: a date at the calendar's edge must fit there.
                return parsed.astimezone(UTC)
            except OverflowError:
                raise FilterError("the date falls outside years 1-9999 in UTC", loc) from None
    raise FilterError("expected an ISO 8601 date or date-time string (UTC when no offset)", loc)


def _list(value: Any, loc: Loc) -> list[Any]:
    if not isinstance(value, list) or not value:
        raise FilterError("expected a non-empty list", loc)
    if len(value) > MAX_LIST_VALUES:
        raise FilterError(f"lists are limited to {MAX_LIST_VALUES} values", loc)
    return value


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


# --- metadata (JSONB) ----------------------------------------------------------------------

_JSON_TYPES = {bool: "boolean", int: "number", float: "number", str: "string"}


def _scalar(value: Any, loc: Loc) -> Scalar:
    if isinstance(value, str):
        return _string(value, loc)
    if isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise FilterError("numbers must be finite", loc)
        return value
    hint = "; test presence with $exists" if value is None else ""
    raise FilterError(f"expected a string, number or boolean, got {_json_type(value)}{hint}", loc)


def _jsonb(value: Any) -> ColumnElement[Any]:
    """A JSON value sent as a jsonb parameter: a cast of a text parameter would parse it again
    for every row a generic plan tests (app/search/plan_reuse.py)."""
    return cast(literal(value, JSONB), JSONB)


def _metadata_clause(
    columns: Sequence[ColumnElement[Any]], path: tuple[str, ...], op: str, value: Any, loc: Loc
) -> ColumnElement[bool]:
    keys = [literal(segment, Text) for segment in path]
    extracted = [type_coerce(func.jsonb_extract_path(col, *keys), JSONB) for col in columns]
    node: ColumnElement[Any] = (
        extracted[0] if len(extracted) == 1 else type_coerce(func.coalesce(*extracted), JSONB)
    )
    if op == "$exists":
        return node.is_not(None) if value else node.is_(None)
    if op in ("$in", "$nin"):
        values = [_scalar(item, (*loc, i)) for i, item in enumerate(_list(value, loc))]
        # [x] <@ [v1, v2, ...]: JSON equality, so 2020 matches 2020.0 and never "2020".
        member = func.jsonb_build_array(node).op("<@", is_comparison=True)(_jsonb(values))
        clause = func.coalesce(member, false())
        return clause if op == "$in" else not_(clause)
    scalar = _scalar(value, loc)
    if op == "$contains":
        text_match: ColumnElement[bool] = (
            func.strpos(func.lower(node.op("#>>")(literal_column("'{}'::text[]"))), scalar.lower())
            > 0
            if isinstance(scalar, str)
            else false()
        )
        contains = case(
            (
                func.jsonb_typeof(node) == "array",
                node.op("@>", is_comparison=True)(_jsonb([scalar])),
            ),
            (func.jsonb_typeof(node) == "string", text_match),
            else_=false(),
        )
        return func.coalesce(contains, false())
    operand = _jsonb(scalar)
    if op in ("$eq", "$ne"):
        equal = func.coalesce(node == operand, false())
        return not_(equal) if op == "$ne" else equal
    # JSONB orders values of one type as their SQL types do (numbers numerically, strings by
    # collation); requiring the same JSON type keeps `"10" > 9` from comparing across types.
    same_type = func.jsonb_typeof(node) == _JSON_TYPES[type(scalar)]
    return func.coalesce(and_(same_type, _compare(node, op, operand)), false())
