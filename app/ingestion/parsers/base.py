"""What every parser takes and gives: limits, the parsed document, the protocol, text decoding."""

from __future__ import annotations

import codecs
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from app.ingestion.builder import Block, build_tree
from app.ingestion.tree import DocumentNode
from app.kit.errors import PayloadTooLarge, UnprocessableDocument
from app.kit.strings import Metadata

# Peak memory of ingesting one character of extracted text (its tree nodes, chunks, token
# offsets, and the tree's JSON at the store step, the peak), as `scripts/bench-ingest
# --memory` measured it with some margin: at most about 38 bytes in any format
# (docs/benchmarks.md). A DOCX body's XML is streamed and costs about its own size while it
# is read; its limit stays at ten bytes per byte of it, so a body of junk XML is still
# refused from the zip's directory before any of it is inflated.
BYTES_PER_TEXT_CHAR = 48
BYTES_PER_XML_BYTE = 10


class ParseLimits(BaseModel):
    """Bounds on the work one document may cause; hostile or huge input fails fast."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_bytes: int = Field(default=100 * 1024 * 1024, gt=0)
    max_text_chars: int = Field(default=20_000_000, gt=0)
    max_pdf_pages: int = Field(default=2000, gt=0)
    max_zip_uncompressed_bytes: int = Field(default=200_000_000, gt=0)
    max_zip_entries: int = Field(default=10_000, gt=0)
    # Word XML deflates about 10:1; a bomb of zeros about 1000:1.
    max_zip_ratio: float = Field(default=200.0, gt=1)
    max_csv_rows: int = Field(default=1_000_000, gt=0)
    # Python's csv module refuses fields over 131072 characters on its own.
    max_csv_field_chars: int = Field(default=131_072, gt=0, le=131_072)
    # Spreadsheets: cells read in all (a sheet's used range may claim a million rows).
    max_sheet_cells: int = Field(default=5_000_000, gt=0)
    max_sheet_columns: int = Field(default=1_000, gt=0)
    # Images: pixels per page (a 1x1 PNG may claim 100,000 x 100,000) and OCR work.
    max_image_pixels: int = Field(default=40_000_000, gt=0)
    max_ocr_pages: int = Field(default=200, gt=0)
    max_ocr_seconds: float = Field(default=600.0, gt=0)
    # Records of a JSON or JSONL document, messages nested in an e-mail.
    max_records: int = Field(default=1_000_000, gt=0)
    # The one XML part of a DOCX that is held whole (as bytes, while it is streamed).
    max_docx_xml_bytes: int = Field(default=64 * 1024 * 1024, gt=0)
    # The memory ceiling these limits were derived from (`within`), named in errors.
    memory_bytes: int | None = None

    @classmethod
    def within(cls, memory_bytes: int) -> ParseLimits:
        """Limits that keep one document's ingestion under `memory_bytes` (ARBOR_INGEST_MEMORY_MB),
        from what docs/benchmarks.md measured per extracted character and per XML byte."""
        defaults = cls()
        return cls(
            max_text_chars=min(defaults.max_text_chars, memory_bytes // BYTES_PER_TEXT_CHAR),
            max_docx_xml_bytes=min(defaults.max_docx_xml_bytes, memory_bytes // BYTES_PER_XML_BYTE),
            memory_bytes=memory_bytes,
        )

    def too_much_text(self, chars: int) -> PayloadTooLarge:
        """The error of a document whose extracted text passed `max_text_chars`."""
        return PayloadTooLarge(
            f"the extracted text passed {self.max_text_chars} characters"
            + self._ceiling(f"{chars} characters")
        )

    def _ceiling(self, what: str) -> str:
        if self.memory_bytes is None:
            return f" (at {what} when extraction stopped); the limit is {self.max_text_chars}"
        return (
            f" (at {what} when extraction stopped): ingesting it would take more than the "
            f"{self.memory_bytes // (1024 * 1024)} MiB one document may use "
            "(ARBOR_INGEST_MEMORY_MB)"
        )


class ParsedDocument(BaseModel):
    """The extracted text, its tree, and what the parser learned about the document."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    title: str | None
    root: DocumentNode
    format: str
    page_count: int | None = None
    # Offset in `text` where each page starts (page n starts at page_offsets[n - 1]); PDF only.
    page_offsets: list[int] | None = None
    # The header row's cells; CSV only. Its rendered line is also the root's first paragraph.
    csv_header: list[str] | None = None
    # The 1-based pages (PDF) whose text was read by OCR, not from the file's text layer.
    ocr_pages: list[int] | None = None
    # What the document says about itself (an e-mail's headers): merged into the stored
    # document's metadata, under the upload's own keys, which win on a clash.
    metadata: Metadata | None = None


class Parser(Protocol):
    """Turns the bytes of one format into a ParsedDocument."""

    @property
    def format(self) -> str:
        """The format name this parser registers under."""
        ...

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Parse `data`; raise UnprocessableDocument or PayloadTooLarge on bad input."""
        ...


def decode_text(data: bytes, limits: ParseLimits | None = None) -> str:
    """Decode UTF-8 (BOM optional; UTF-16 with a BOM), reject binary, normalise line ends."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise UnprocessableDocument(f"not valid UTF-16 at byte {exc.start}") from exc
    else:
        skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
        try:
            text = data[skip:].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UnprocessableDocument(f"not valid UTF-8 at byte {exc.start + skip}") from exc
    if limits is not None:
        check_text_size(text, limits)  # before any tree is built over it
    nul = text.find("\x00")
    if nul >= 0:
        raise UnprocessableDocument(f"contains a NUL character at offset {nul}: not a text file")
    # One line-end convention keeps every offset rule simple; the offsets refer to this text.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    require_text(text)
    return text


def require_text(text: str) -> None:
    """Reject a document with nothing but whitespace."""
    if not text.strip():
        raise UnprocessableDocument("empty document")


def check_text_size(text: str | int, limits: ParseLimits) -> None:
    """Reject extracted text (or a length so far) longer than the limit: called while
    extracting, so a document fails before it has all been read."""
    chars = text if isinstance(text, int) else len(text)
    if chars > limits.max_text_chars:
        raise limits.too_much_text(chars)


def finish(
    text: str,
    blocks: list[Block],
    *,
    format: str,
    title: str | None,
    limits: ParseLimits,
    page_offsets: list[int] | None = None,
    csv_header: list[str] | None = None,
    ocr_pages: list[int] | None = None,
    metadata: dict[str, Any] | None = None,
) -> ParsedDocument:
    """Build the tree over `text` and wrap it in a ParsedDocument."""
    if all(block.kind == "boundary" for block in blocks):
        raise UnprocessableDocument("empty document")
    check_text_size(text, limits)
    root = build_tree(text, blocks, title=title, page_offsets=page_offsets)
    return ParsedDocument(
        text=text,
        title=title,
        root=root,
        format=format,
        page_count=len(page_offsets) if page_offsets is not None else None,
        page_offsets=page_offsets,
        csv_header=csv_header,
        ocr_pages=ocr_pages,
        metadata=metadata or None,
    )
