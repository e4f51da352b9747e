"""Images and scanned PDF pages through OCR. Few and small: OCR is the slowest parse there is."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from fpdf import FPDF

from app.ingestion import ParagraphNode, ParseLimits, iter_nodes, parse_document
from app.ingestion.ocr import OcrLine, paragraphs
from app.ingestion.tree import invariant_problems
from app.kit.errors import PayloadTooLarge, UnprocessableDocument
from tests.ingestion import samples


def test_image_lines_group_into_paragraphs_with_confidence() -> None:
    data = samples.png_bytes(
        ["The quarterly zebra report", "was filed on Tuesday.", "", "", "Second paragraph here."]
    )
    parsed = parse_document(data, filename="scan.png")
    assert invariant_problems(parsed.root, parsed.text) == []
    assert (parsed.format, parsed.page_count, parsed.ocr_pages) == ("image", 1, [1])
    found = [n for n in iter_nodes(parsed.root) if isinstance(n, ParagraphNode)]
    assert [n.text.lower() for n in found] == [
        "the quarterly zebra report was filed on tuesday.",
        "second paragraph here.",
    ]
    assert all(n.confidence is not None and 0.8 < n.confidence <= 1 for n in found)


def test_multi_page_tiff_pages() -> None:
    parsed = parse_document(
        samples.tiff_bytes([["Alpha page"], ["Bravo page"]]), filename="fax.tiff"
    )
    assert parsed.page_count == 2
    alpha, bravo = parsed.root.children
    assert "bravo" in bravo.text.lower()
    assert (alpha.page_start, bravo.page_start) == (1, 2)


def test_scanned_pdf_page_is_read_by_ocr_and_the_text_page_kept() -> None:
    image = io.BytesIO()
    samples.text_image(["Scanned heron census"], size=(520, 100)).save(image, format="PNG")  # type: ignore[attr-defined]
    pdf = FPDF(format=(160, 60))  # a small page renders (and reads) fast
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.multi_cell(0, 8, "The first page has a real text layer.")
    pdf.add_page()
    pdf.image(image, x=5, y=5, w=140)
    parsed = parse_document(bytes(pdf.output()), filename="mixed.pdf")
    assert invariant_problems(parsed.root, parsed.text) == []
    assert parsed.ocr_pages == [2]
    first, second = parsed.root.children
    assert first.text == "The first page has a real text layer."
    assert (first.page_start, first.confidence) == (1, None)
    assert "heron census" in second.text.lower()
    assert second.page_start == 2
    assert second.confidence is not None


def _png_header(width: int, height: int) -> bytes:
    """A PNG that claims a size without the pixels to fill it."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
        + b"\x00\x00\x00\x00IEND\xaeB`\x82"
    )


def test_pixel_bomb_is_refused_before_decoding() -> None:
    with pytest.raises(PayloadTooLarge, match="pixels"):
        parse_document(_png_header(100_000, 100_000), filename="bomb.png")


def test_corrupt_image_and_page_limit() -> None:
    with pytest.raises(UnprocessableDocument):
        parse_document(_png_header(10, 10), filename="empty.png")
    with pytest.raises(PayloadTooLarge, match="2 pages"):
        parse_document(
            samples.tiff_bytes([["a"], ["b"]]),
            filename="x.tiff",
            limits=ParseLimits(max_ocr_pages=1),
        )


def test_paragraph_grouping_by_gap_and_indent() -> None:
    lines = [
        OcrLine("one", 10, 10, 100, 30, 0.9),
        OcrLine("two", 10, 34, 100, 54, 0.7),
        OcrLine("three", 10, 90, 100, 110, 1.0),  # a gap of almost two lines
        OcrLine("four", 400, 114, 500, 134, 1.0),  # far to the right: another block
    ]
    assert [(p.text, p.confidence) for p in paragraphs(lines)] == [
        ("one two", 0.8),
        ("three", 1.0),
        ("four", 1.0),
    ]


def test_image_signatures() -> None:
    from PIL import Image

    from app.ingestion import detect_format

    for fmt in ("BMP", "WEBP", "JPEG", "TIFF", "PNG"):
        out = io.BytesIO()
        Image.new("RGB", (4, 4)).save(out, format=fmt)
        assert detect_format(out.getvalue(), "upload.bin", None) == "image", fmt
    assert detect_format(b"BMW makes cars.", None, None) == "text"
