"""PDF parsing: text and page numbers, encryption, damage, scans, page limits."""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from app.ingestion import (
    ChunkingConfig,
    ParsedDocument,
    ParseLimits,
    TokenizerCounter,
    chunk_document,
    iter_nodes,
    parse_document,
)
from app.kit.errors import PayloadTooLarge, UnprocessableDocument

COUNTER = TokenizerCounter.from_file(Path(__file__).parent / "data" / "tokenizer.json")


def _page_text(number: int) -> str:
    return (
        f"Chapter {number} heading\n"
        f"This is page {number}. It talks about subject {number} at some length. "
        f"Another sentence follows on page {number}."
    )


def _pdf(
    pages: int = 3, *, owner: str | None = None, user: str | None = None, title: str = ""
) -> bytes:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    if title:
        pdf.set_title(title)
    for number in range(1, pages + 1):
        pdf.add_page()
        pdf.multi_cell(0, 10, _page_text(number))
    if owner is not None:
        pdf.set_encryption(owner_password=owner, user_password=user)
    return bytes(pdf.output())


def test_text_is_extracted_page_by_page_with_page_numbers_on_nodes() -> None:
    parsed = parse_document(_pdf(3, title="Report"), filename="report.pdf")
    assert parsed.format == "pdf"
    assert parsed.page_count == 3
    assert parsed.title == "Report"
    assert parsed.page_offsets is not None
    assert parsed.page_offsets[0] == 0
    for number in (1, 2, 3):
        assert f"Chapter {number} heading" in parsed.text
        assert f"This is page {number}." in parsed.text
    for node in iter_nodes(parsed.root):
        assert node.text == parsed.text[node.range.start_offset : node.range.end_offset]
        if node is parsed.root:
            assert (node.page_start, node.page_end) == (1, 3)
            continue
        pages = {n for n in (1, 2, 3) if f"page {n}" in node.text or f"Chapter {n}" in node.text}
        if pages:
            assert node.page_start == min(pages)
            assert node.page_end == max(pages)


def test_pdf_parse_round_trips_through_json() -> None:
    parsed = parse_document(_pdf(2), format="pdf")
    assert ParsedDocument.model_validate(parsed.model_dump(mode="json")) == parsed


def test_chunks_carry_page_ranges() -> None:
    parsed = parse_document(_pdf(3), format="pdf")
    chunks = chunk_document(parsed, ChunkingConfig(max_tokens=40, overlap_tokens=0), COUNTER)
    assert len(chunks) >= 3
    for chunk in chunks:
        assert chunk.text == parsed.text[chunk.start_offset : chunk.end_offset]
        assert chunk.page_start is not None
        assert chunk.page_end is not None
        for number in (1, 2, 3):
            if f"page {number}" in chunk.text:
                assert chunk.page_start <= number <= chunk.page_end
    assert {c.page_start for c in chunks} == {1, 2, 3}
    wide = chunk_document(parsed, ChunkingConfig(max_tokens=256), COUNTER)
    assert len(wide) == 1
    assert (wide[0].page_start, wide[0].page_end) == (1, 3)


def test_pdf_with_user_password_is_refused_as_encrypted() -> None:
    data = _pdf(1, owner="owner", user="secret")
    with pytest.raises(UnprocessableDocument, match="encrypted"):
        parse_document(data, filename="locked.pdf")


def test_pdf_with_only_an_owner_password_opens_with_the_empty_password() -> None:
    data = _pdf(1, owner="owner")
    parsed = parse_document(data, filename="restricted.pdf")
    assert "This is page 1." in parsed.text


@pytest.mark.parametrize("fraction", [0.3, 0.6, 0.9, 0.99])
def test_truncated_pdf_is_unprocessable(fraction: float) -> None:
    data = _pdf(3)
    with pytest.raises(UnprocessableDocument, match=r"truncated|corrupt"):
        parse_document(data[: int(len(data) * fraction)], filename="cut.pdf")


def test_pdf_cut_before_its_end_marker_is_called_truncated() -> None:
    with pytest.raises(UnprocessableDocument, match="no end-of-file marker"):
        parse_document(_pdf(2)[:-7], filename="cut.pdf")


def test_garbage_after_the_magic_is_unprocessable() -> None:
    with pytest.raises(UnprocessableDocument, match="corrupt"):
        parse_document(b"%PDF-1.7\n" + bytes(range(256)) * 20 + b"\n%%EOF\n")


def test_pdf_without_a_text_layer_is_refused() -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 100, 60, style="F")  # a drawing, like a scan: no text objects
    with pytest.raises(UnprocessableDocument, match="no text layer"):
        parse_document(bytes(pdf.output()), filename="scan.pdf")


def test_page_limit() -> None:
    with pytest.raises(PayloadTooLarge, match="3 pages"):
        parse_document(_pdf(3), filename="a.pdf", limits=ParseLimits(max_pdf_pages=2))


@pytest.mark.parametrize("method", ["AES_128", "AES_256"])
def test_aes_encrypted_pdfs_open_or_ask_for_a_password(method: str) -> None:
    """AES needs `cryptography` (pypdf[crypto]); without it every AES PDF failed as corrupt."""
    from fpdf.enums import EncryptionMethod

    def aes(user: str | None) -> bytes:
        pdf = FPDF()
        pdf.set_font("Helvetica", size=12)
        pdf.add_page()
        pdf.multi_cell(0, 10, _page_text(1))
        pdf.set_encryption(
            owner_password="owner",
            user_password=user,
            encryption_method=EncryptionMethod[method],
        )
        return bytes(pdf.output())

    assert "This is page 1." in parse_document(aes(None), filename="restricted.pdf").text
    with pytest.raises(UnprocessableDocument, match="encrypted"):
        parse_document(aes("secret"), filename="locked.pdf")
