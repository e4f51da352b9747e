"""The single entry point from upload bytes to a ParsedDocument."""

from __future__ import annotations

from app.ingestion.detect import detect_format
from app.ingestion.parsers import ParsedDocument, ParseLimits, get_parser
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
) -> ParsedDocument:
    """Detect the format (unless given), parse, and title the document.

    The title is `title`, else one the document carries (HTML <title>, PDF or DOCX metadata,
    a DOCX Title paragraph, the first markdown `#` heading), else the file name's stem.
    CPU-bound: call it from a worker or thread, not on the event loop.
    """
    limits = limits or ParseLimits()
    if len(data) > limits.max_bytes:
        raise PayloadTooLarge(f"upload has {len(data)} bytes; the limit is {limits.max_bytes}")
    parser = get_parser(format or detect_format(data, filename, content_type))
    parsed = parser.parse(data, title=(title or "").strip() or None, limits=limits)
    if parsed.title is not None:
        return parsed
    fallback = _title_from_filename(filename)
    if fallback is None:
        return parsed
    return parsed.model_copy(
        update={"title": fallback, "root": parsed.root.model_copy(update={"title": fallback})}
    )
