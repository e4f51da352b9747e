"""OCR for the pages of a PDF without a usable text layer (scans), the rest kept as text.

Pages are rendered with PDFium (pypdfium2) one at a time, at up to RENDER_DPI and at most
`ocr.MAX_SIDE` pixels on the long side, and read by the OCR engine. PDFium is not thread-safe,
so every call into it holds one process-wide lock (parsing runs in several worker threads).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from pypdf import PdfReader

from app.ingestion import ocr
from app.ingestion.parsers.base import ParseLimits
from app.ingestion.parsers.images import ocr_page
from app.kit.errors import UnprocessableDocument

# A page with fewer non-space characters than this has no usable text layer (a scan may
# carry a page number or a stray mark as text).
MIN_TEXT_CHARS = 16
RENDER_DPI = 200
_pdfium_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class OcrResult:
    """Every page: its text layer, or the paragraphs OCR read; and which pages were OCR'd."""

    pages: list[str | list[ocr.OcrParagraph]]
    ocr_pages: list[int]


def needs_ocr(reader: PdfReader, index: int, page_text: str) -> bool:
    """Say whether a page's text layer is too thin to use and the page shows an image: a
    blank page, or one with a short caption and no picture, has nothing for OCR to find."""
    if sum(1 for char in page_text if not char.isspace()) >= MIN_TEXT_CHARS:
        return False
    try:
        return len(reader.pages[index].images) > 0
    except Exception:  # a malformed image dictionary: let OCR look at the rendered page
        return True


def ocr_missing_pages(
    data: bytes, reader: PdfReader, pages: list[str], limits: ParseLimits
) -> OcrResult | None:
    """OCR the pages without a usable text layer; None when every page has one."""
    missing = [index for index, text in enumerate(pages) if needs_ocr(reader, index, text)]
    if not missing:
        return None
    import pypdfium2

    clock = ocr.OcrClock(limits)
    result: list[str | list[ocr.OcrParagraph]] = list(pages)
    done: list[int] = []
    try:
        with _pdfium_lock:
            document = pypdfium2.PdfDocument(data)
        try:
            for index in missing:
                with _pdfium_lock:
                    page = document[index]
                    width, height = page.get_size()
                    scale = min(RENDER_DPI / 72, ocr.MAX_SIDE / max(width, height, 1.0))
                    image = page.render(scale=scale).to_pil()
                    page.close()
                paragraphs = ocr_page(image, clock)
                if paragraphs:
                    result[index] = paragraphs
                    done.append(index + 1)
        finally:
            with _pdfium_lock:
                document.close()
    except pypdfium2.PdfiumError as exc:
        raise UnprocessableDocument(f"PDF page could not be rendered for OCR: {exc}") from exc
    return OcrResult(result, done)
