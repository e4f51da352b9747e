"""PDF via pypdf: the text layer page by page, with a page map for nodes and chunks."""

from __future__ import annotations

import io
import re

from pypdf import PasswordType, PdfReader
from pypdf.errors import DependencyError

from app.ingestion import segment
from app.ingestion.builder import Block
from app.ingestion.parsers import pdf_ocr
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, check_text_size, finish
from app.ingestion.parsers.images import paged_layout
from app.kit.errors import PayloadTooLarge, UnprocessableDocument

PAGE_SEPARATOR = "\n\n"
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def _clean(page_text: str) -> str:
    page_text = page_text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub(" ", page_text).strip()


def _open(data: bytes) -> PdfReader:
    # pypdf quietly rebuilds a cut-off file from what is left; a partial upload should fail.
    if b"%%EOF" not in data[-8192:]:
        raise UnprocessableDocument("corrupt or truncated PDF: no end-of-file marker")
    try:
        reader = PdfReader(io.BytesIO(data))
        encrypted = reader.is_encrypted
    # pypdf raises many exception types on malformed input; all of them mean a bad file here.
    except Exception as exc:
        raise UnprocessableDocument(f"corrupt or truncated PDF: {exc}") from exc
    if encrypted:
        try:
            # An owner password alone only restricts printing and copying; "" opens the text.
            opened = reader.decrypt("")
        except DependencyError as exc:
            raise UnprocessableDocument(
                "PDF is encrypted with a cipher this service cannot open"
            ) from exc
        if opened == PasswordType.NOT_DECRYPTED:
            raise UnprocessableDocument("PDF is encrypted and needs a password")
    return reader


def _read_pages(reader: PdfReader, limits: ParseLimits) -> tuple[list[str], str | None]:
    try:
        count = len(reader.pages)
        if count > limits.max_pdf_pages:
            raise PayloadTooLarge(f"PDF has {count} pages; the limit is {limits.max_pdf_pages}")
        pages: list[str] = []
        extracted = 0
        for page in reader.pages:
            pages.append(_clean(page.extract_text()))
            extracted += len(pages[-1])
            check_text_size(extracted, limits)  # page by page, not once all are read
        metadata = reader.metadata
        meta_title = metadata.title if metadata is not None else None
    except PayloadTooLarge:
        raise
    except Exception as exc:  # see _open: any failure inside pypdf is a malformed file
        raise UnprocessableDocument(f"corrupt PDF: {exc}") from exc
    return pages, (meta_title.strip() or None) if isinstance(meta_title, str) else None


def pdf_layout(pages: list[str]) -> tuple[str, list[int], list[Block]]:
    """Join page texts with blank lines; return the text, page start offsets and blocks."""
    offsets: list[int] = []
    parts: list[str] = []
    length = 0
    for index, page in enumerate(pages):
        if index:
            parts.append(PAGE_SEPARATOR)
            length += len(PAGE_SEPARATOR)
        offsets.append(length)
        parts.append(page)
        length += len(page)
    text = "".join(parts)
    blocks: list[Block] = []
    for index, start in enumerate(offsets):
        # Paragraphs never cross a page break, so every node has a clear first page.
        end = start + len(pages[index])
        blocks.extend(Block("paragraph", s, e) for s, e in segment.blocks(text, start, end))
    return text, offsets, blocks


class PdfParser:
    """Parses PDFs: the text layer, and OCR for scanned pages."""

    format = "pdf"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Extract each page's text; pages without a usable text layer are read by OCR."""
        reader = _open(data)
        pages, meta_title = _read_pages(reader, limits)
        scanned = pdf_ocr.ocr_missing_pages(data, reader, pages, limits)
        if scanned is not None and scanned.ocr_pages:
            text, offsets, blocks = paged_layout(scanned.pages)
        elif not any(pages):
            raise UnprocessableDocument("PDF has no text layer, and OCR found no text on it")
        else:
            text, offsets, blocks = pdf_layout(pages)
        return finish(
            text,
            blocks,
            format=self.format,
            title=title or meta_title,
            limits=limits,
            page_offsets=offsets,
            ocr_pages=scanned.ocr_pages if scanned is not None else None,
        )
