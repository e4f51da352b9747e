"""The single entry point from upload bytes to a ParsedDocument."""

from __future__ import annotations

from collections.abc import Sequence

from app.ingestion.detect import detect_format
from app.ingestion.parsers import ParsedDocument, ParseLimits, get_parser
from app.ingestion.parsers.records import RECORD_FORMATS, parse_records
from app.kit.errors import PayloadTooLarge


def _title_from_filename(filename: str | None) -> str | None:
    if not filename:
        return None
    name = filename.replace("\\", "/").rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    return stem.strip() or None


def parse_document(
    data: bytes,
    *,
    filename: str | None = None,
    content_type: str | None = None,
    format: str | None = None,
    title: str | None = None,
    limits: ParseLimits | None = None,
    json_text_fields: Sequence[str] | None = None,
) -> ParsedDocument:
    """Detect the format (unless given), parse, and title the document.

    The title is `title`, else one the document carries (HTML <title>, PDF or DOCX metadata,
    a DOCX Title paragraph, the first markdown `#` heading), else the file name's stem.
    `json_text_fields` (the chunking setting) names a JSON or JSONL record's text fields.
    CPU-bound: call it from a worker or thread, not on the event loop.
    """
    limits = limits or ParseLimits()
    if len(data) > limits.max_bytes:
        raise PayloadTooLarge(f"upload has {len(data)} bytes; the limit is {limits.max_bytes}")
    format = format or detect_format(data, filename, content_type)
    given_title = (title or "").strip() or None
    if json_text_fields and format in RECORD_FORMATS:
        parsed = parse_records(
            data, format=format, title=given_title, limits=limits, text_fields=json_text_fields
        )
    else:
        parsed = get_parser(format).parse(data, title=given_title, limits=limits)
    if parsed.title is not None:
        return parsed
    fallback = _title_from_filename(filename)
    if fallback is None:
        return parsed
    return parsed.model_copy(
        update={"title": fallback, "root": parsed.root.model_copy(update={"title": fallback})}
    )
