"""JSON and JSONL: each record a section, each field a `path: value` paragraph.

A top-level array's items are the records (a top-level object is one record); JSONL has one
per line. A record's section is titled by its `title`, `name` or `id` field, else "Record N".
Nested objects and arrays flatten to dotted paths (`author.name: Ann`, `tags[0]: x`).

With `text_fields` (the chunking setting `json_text_fields`), the values of those fields are
the record's text: each a plain paragraph (split at blank lines), in the order named, and the
record's other fields follow as `path: value` paragraphs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from app.ingestion import segment
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


def _storable(text: str) -> str:
    """JSON escapes can spell what Postgres cannot store (`\\u0000`, a lone `\\ud800`): NULs
    dropped, lone surrogates replaced, so that such a record is stored, not retried to failure."""
    text = text.replace("\x00", "")
    return text if text.isascii() else text.encode("utf-8", "replace").decode("utf-8")


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
            yield _storable(where or "value"), _storable(_scalar(item))


def _title(record: Any, number: int) -> str:
    if isinstance(record, dict):
        for key in TITLE_FIELDS:
            value = record.get(key)
            if isinstance(value, str | int) and not isinstance(value, bool) and str(value).strip():
                return _storable(" ".join(str(value).split())[:200])
    return f"Record {number}"


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise UnprocessableDocument(f"JSON {where} is nested too deeply") from exc
    except ValueError as exc:
        raise UnprocessableDocument(f"malformed JSON {where}: {exc}") from exc


def _named(path: str, name: str) -> bool:
    """Whether the flattened `path` is the field `name` or lies under it."""
    return path == name or (path.startswith(name) and path[len(name)] in ".[")


def _add_text(out: TextBuilder, value: str) -> None:
    for start, end in segment.blocks(value):
        out.add(value[start:end])


def _build(records: list[Any], limits: ParseLimits, text_fields: Sequence[str] = ()) -> TextBuilder:
    if len(records) > limits.max_records:
        raise PayloadTooLarge(f"more than {limits.max_records} records; that is the limit")
    out = TextBuilder()
    for number, record in enumerate(records, start=1):
        title = _title(record, number)
        out.add(title, kind="heading", level=1, title=title)
        pairs = list(fields(record))
        taken = [False] * len(pairs)
        for name in text_fields:
            for index, (path, text) in enumerate(pairs):
                if not taken[index] and _named(path, name):
                    taken[index] = True
                    _add_text(out, text.replace("\r\n", "\n").replace("\r", "\n"))
        for (path, text), used in zip(pairs, taken, strict=True):
            if not used:
                out.add(f"{path}: {text}")
    return out


def parse_records(
    data: bytes,
    *,
    format: str,
    title: str | None,
    limits: ParseLimits,
    text_fields: Sequence[str] = (),
) -> ParsedDocument:
    """A JSON (`format="json"`) or JSONL document, `text_fields` its records' text."""
    text = decode_text(data)
    if format == "jsonl":
        records: list[Any] = []
        for number, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                if len(records) >= limits.max_records:
                    raise PayloadTooLarge(f"more than {limits.max_records} records")
                records.append(_loads(line, f"at line {number}"))
    else:
        value = _loads(text, "document")
        records = value if isinstance(value, list) else [value]
    out = _build(records, limits, text_fields)
    return finish(out.text(), out.blocks, format=format, title=title, limits=limits)


RECORD_FORMATS = frozenset({"json", "jsonl"})


class JsonParser:
    """Parses a JSON document of records."""

    format = "json"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """One section per record of a top-level array (or the one object)."""
        return parse_records(data, format=self.format, title=title, limits=limits)


class JsonlParser:
    """Parses JSON Lines: one record per non-blank line."""

    format = "jsonl"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """One section per line's record."""
        return parse_records(data, format=self.format, title=title, limits=limits)
