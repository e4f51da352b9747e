"""JSON and JSONL: each record a section, each field a `path: value` paragraph.

A top-level array's items are the records (a top-level object is one record); JSONL has one
per line. A record's section is titled by its `title`, `name` or `id` field, else "Record N".
Nested objects and arrays flatten to dotted paths (`author.name: Ann`, `tags[0]: x`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from app.ingestion.builder import TextBuilder
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, decode_text, finish
from app.kit.errors import PayloadTooLarge, UnprocessableDocument

TITLE_FIELDS = ("title", "name", "id")


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def fields(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Flatten a JSON value to (dotted path, text) pairs, in document order."""
    # An explicit stack, not recursion: depth is bounded by json.loads already, but a
    # record of many nested levels must not cost a frame each.
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, dict):
            stack.extend(
                (f"{where}.{key}" if where else str(key), inner)
                for key, inner in reversed(list(item.items()))
            )
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", inner) for i, inner in reversed(list(enumerate(item))))
        else:
            yield where or "value", _scalar(item)


def _title(record: Any, number: int) -> str:
    if isinstance(record, dict):
        for key in TITLE_FIELDS:
            value = record.get(key)
            if isinstance(value, str | int) and not isinstance(value, bool) and str(value).strip():
                return " ".join(str(value).split())[:200]
    return f"Record {number}"


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise UnprocessableDocument(f"JSON {where} is nested too deeply") from exc
    except ValueError as exc:
        raise UnprocessableDocument(f"malformed JSON {where}: {exc}") from exc


def _build(records: list[Any], limits: ParseLimits) -> TextBuilder:
    if len(records) > limits.max_records:
        raise PayloadTooLarge(f"more than {limits.max_records} records; that is the limit")
    out = TextBuilder()
    for number, record in enumerate(records, start=1):
        title = _title(record, number)
        out.add(title, kind="heading", level=1, title=title)
        for path, text in fields(record):
            out.add(f"{path}: {text}")
    return out


class JsonParser:
    """Parses a JSON document of records."""

    format = "json"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """One section per record of a top-level array (or the one object)."""
        value = _loads(decode_text(data), "document")
        records = value if isinstance(value, list) else [value]
        out = _build(records, limits)
        return finish(out.text(), out.blocks, format=self.format, title=title, limits=limits)


class JsonlParser:
    """Parses JSON Lines: one record per non-blank line."""

    format = "jsonl"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """One section per line's record."""
        records: list[Any] = []
        for number, line in enumerate(decode_text(data).split("\n"), start=1):
            if line.strip():
                if len(records) >= limits.max_records:
                    raise PayloadTooLarge(f"more than {limits.max_records} records")
                records.append(_loads(line, f"at line {number}"))
        out = _build(records, limits)
        return finish(out.text(), out.blocks, format=self.format, title=title, limits=limits)
