"""Images (PNG, JPEG, TIFF, WebP, BMP) through OCR: paragraphs by layout, pages by frame.

The header is read first and the pixel count checked before any pixel is decoded (a tiny PNG
may claim 100,000 x 100,000), frame by frame for a multi-page TIFF; each frame is a page.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Sequence
from typing import Any

from app.ingestion import ocr, segment
from app.ingestion.builder import Block
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, finish
from app.kit.errors import PayloadTooLarge, UnprocessableDocument

PAGE_SEPARATOR = "\n\n"
IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"II*\x00", b"MM\x00*")


def is_image(head: bytes) -> bool:
    """Say whether the bytes start like one of the image formats read by OCR."""
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return True
    # "BM" alone would take text ("BMW ..."): a bitmap's two reserved words are zero.
    if head[:2] == b"BM" and head[6:10] == b"\x00\x00\x00\x00":
        return True
    return head.startswith(IMAGE_MAGIC)


def paged_layout(
    pages: Sequence[str | list[ocr.OcrParagraph]],
) -> tuple[str, list[int], list[Block]]:
    """Join pages with blank lines; a page is text (split at blank lines) or OCR paragraphs
    (one block each, with its confidence). Paragraphs never cross a page break."""
    parts: list[str] = []
    offsets: list[int] = []
    blocks: list[Block] = []
    length = 0
    for index, page in enumerate(pages):
        if index:
            parts.append(PAGE_SEPARATOR)
            length += len(PAGE_SEPARATOR)
        offsets.append(length)
        if isinstance(page, str):
            parts.append(page)
            blocks.extend(
                Block("paragraph", length + s, length + e) for s, e in segment.blocks(page)
            )
            length += len(page)
            continue
        for number, paragraph in enumerate(page):
            if number:
                parts.append(PAGE_SEPARATOR)
                length += len(PAGE_SEPARATOR)
            parts.append(paragraph.text)
            blocks.append(
                Block(
                    "paragraph",
                    length,
                    length + len(paragraph.text),
                    confidence=paragraph.confidence,
                )
            )
            length += len(paragraph.text)
    return "".join(parts), offsets, blocks


def ocr_page(image: Any, clock: ocr.OcrClock) -> list[ocr.OcrParagraph]:
    """OCR one page image into paragraphs, within the document's OCR budget."""
    clock.next_page()
    return ocr.paragraphs(ocr.read_lines(image))


def _check_pixels(image: Any, limits: ParseLimits, page: int) -> None:
    width, height = image.size
    if width * height > limits.max_image_pixels:
        raise PayloadTooLarge(
            f"image page {page} is {width} x {height} pixels; "
            f"the limit is {limits.max_image_pixels} pixels"
        )


def _frames(data: bytes, limits: ParseLimits) -> list[list[ocr.OcrParagraph]]:
    from PIL import Image, UnidentifiedImageError

    clock = ocr.OcrClock(limits)
    try:
        # Our own pixel limit (below Pillow's) decides, frame by frame, not Pillow's warning.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise UnprocessableDocument(f"not a readable image: {exc}") from exc
    except Image.DecompressionBombError as exc:
        raise PayloadTooLarge(f"image is too large to decode: {exc}") from exc
    with image:
        count = getattr(image, "n_frames", 1)
        if count > limits.max_ocr_pages:
            raise PayloadTooLarge(f"image has {count} pages; the limit is {limits.max_ocr_pages}")
        pages: list[list[ocr.OcrParagraph]] = []
        for index in range(count):
            try:
                image.seek(index)
                _check_pixels(image, limits, index + 1)
                image.load()
            except PayloadTooLarge:
                raise
            except (OSError, ValueError, EOFError, SyntaxError) as exc:
                raise UnprocessableDocument(f"corrupt image (page {index + 1}): {exc}") from exc
            try:
                pages.append(ocr_page(image, clock))
            except (OSError, ValueError) as exc:  # a mode Pillow cannot convert to RGB
                raise UnprocessableDocument(f"image page {index + 1} unreadable: {exc}") from exc
    return pages


class ImageParser:
    """Reads the text of images by OCR."""

    format = "image"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """OCR every page (frame); the tree's paragraphs carry the OCR confidence."""
        pages = _frames(data, limits)
        if not any(pages):
            raise UnprocessableDocument("no text was found in the image")
        text, offsets, blocks = paged_layout(pages)
        return finish(
            text,
            blocks,
            format=self.format,
            title=title,
            limits=limits,
            page_offsets=offsets,
            ocr_pages=[number for number, page in enumerate(pages, start=1) if page],
        )
