"""Tell the format of an upload: by content first, then file extension, then content type."""

from __future__ import annotations

import codecs
import io
import zipfile

from app.ingestion.parsers import supported_formats
from app.ingestion.parsers.archive import odf_mimetype
from app.ingestion.parsers.docx import DOCUMENT_PART
from app.ingestion.parsers.images import is_image
from app.ingestion.parsers.markdown import looks_like_markdown
from app.kit.errors import UnsupportedMediaType

EXTENSIONS = {
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".csv": "csv",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
    ".docx": "docx",
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".ods": "ods",
    ".pptx": "pptx",
    ".png": "image",
    ".jpg": "image",
    ".jpeg": "image",
    ".tif": "image",
    ".tiff": "image",
    ".webp": "image",
    ".bmp": "image",
    ".epub": "epub",
    ".eml": "eml",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".rtf": "rtf",
    ".odt": "odt",
}
CONTENT_TYPES = {
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
    "text/csv": "csv",
    "application/csv": "csv",
    "text/html": "html",
    "application/xhtml+xml": "html",
    "application/pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "application/vnd.ms-excel.sheet.macroenabled.12": "xlsx",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
    "image/png": "image",
    "image/jpeg": "image",
    "image/tiff": "image",
    "image/webp": "image",
    "image/bmp": "image",
    "application/epub+zip": "epub",
    "message/rfc822": "eml",
    "application/json": "json",
    "application/x-ndjson": "jsonl",
    "application/jsonl": "jsonl",
    "application/rtf": "rtf",
    "text/rtf": "rtf",
    "application/vnd.oasis.opendocument.text": "odt",
}
# Zip containers told apart by the part only their format has.
_ZIP_PARTS = {
    DOCUMENT_PART: "docx",
    "xl/workbook.xml": "xlsx",
    "ppt/presentation.xml": "pptx",
}
_ZIP_FORMATS = frozenset({*_ZIP_PARTS.values(), "ods", "odt", "epub"})
# Formats we refuse on sight, whatever the name says: images, media, executables, archives.
_BINARY_MAGIC = (
    b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"II*\x00", b"MM\x00*",
    b"RIFF", b"OggS", b"fLaC", b"ID3", b"\x7fELF", b"\xca\xfe\xba\xbe", b"\xcf\xfa\xed\xfe",
    b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00", b"Rar!\x1a\x07", b"7z\xbc\xaf\x27\x1c",
    b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", b"\x00asm", b"SQLite format 3\x00",
)  # fmt: skip
_SNIFF_BYTES = 8192
_MARKDOWN_SNIFF_BYTES = 1024 * 1024
# Content types that say nothing about the format, so the bytes decide.
_UNTYPED = frozenset({"application/octet-stream", "binary/octet-stream"})


def _unsupported(what: str) -> UnsupportedMediaType:
    return UnsupportedMediaType(
        f"{what}; supported formats: {', '.join(supported_formats())}",
        extra={"supported_formats": list(supported_formats())},
    )


def _extension(filename: str | None) -> str | None:
    if not filename:
        return None
    name = filename.replace("\\", "/").rsplit("/", 1)[-1].lower()
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else None


def _zip_format(data: bytes, hinted: str | None) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError, ValueError):
        if hinted in _ZIP_FORMATS:
            return hinted  # a damaged file of that format: its parser says what is wrong
        raise _unsupported("an unreadable zip archive") from None
    for part, fmt in _ZIP_PARTS.items():
        if part in names:
            return fmt
    declared = odf_mimetype(data)
    if declared is not None:
        return declared
    if hinted in ("ods", "odt", "epub"):
        return hinted  # no (readable) `mimetype` member: the parser judges what is there
    raise _unsupported("a zip archive that is not a document of a supported format")


def _is_text(head: bytes) -> bool:
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return True
    try:
        # Not final: the sample may end in the middle of a character.
        decoded = codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return "\x00" not in decoded


def _looks_html(head: bytes) -> bool:
    start = head.removeprefix(codecs.BOM_UTF8).lstrip().lower()
    return start.startswith((b"<!doctype html", b"<html")) or (
        start.startswith((b"<?xml", b"<!--")) and b"<html" in start
    )


def detect_format(data: bytes, filename: str | None, content_type: str | None) -> str:
    """Return a registered format name for the upload, or raise UnsupportedMediaType.

    Content decides first (PDF magic, a zip holding the part of DOCX, XLSX or PPTX or the
    `mimetype` of ODS, ODT or EPUB, image and RTF signatures, an HTML doctype, other known
    binary signatures refused), then the extension, then the content type. Text with no
    decisive hint is markdown when its first MiB has an ATX heading or a code fence outside
    code, else plain text. Cheap enough to call at upload time.
    """
    head = data[:_SNIFF_BYTES]
    by_name = EXTENSIONS.get(_extension(filename) or "")
    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    by_type = CONTENT_TYPES.get(media_type)
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _zip_format(data, by_name or by_type)
    if is_image(head):
        return "image"
    if head.lstrip().startswith(b"{\\rtf"):
        return "rtf"
    if head.startswith(_BINARY_MAGIC) or (head.startswith(b"MZ") and b"\x00" in head):
        raise _unsupported("binary content of an unsupported type")
    if _looks_html(head):
        return "html"
    if by_name is not None:
        return by_name
    if by_type is not None:
        return by_type
    if not _is_text(head):
        raise _unsupported(f"content of type {media_type or 'unknown'} that is not text")
    if media_type and not media_type.startswith("text/") and media_type not in _UNTYPED:
        raise _unsupported(f"content type {media_type}")
    # A prefix is enough to tell, and keeps this cheap where it runs at upload time. Without
    # its BOM, as the parser reads it: a heading on line 1 must start the line.
    sample = (
        data[:_MARKDOWN_SNIFF_BYTES].removeprefix(codecs.BOM_UTF8).decode("utf-8", errors="replace")
    )
    return "markdown" if looks_like_markdown(sample) else "text"
