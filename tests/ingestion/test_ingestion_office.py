"""Spreadsheets, slides, e-books, e-mail, JSON, RTF and ODT: trees, ranges, pages, hostile input."""

from __future__ import annotations

import io
import zipfile

import pytest

from app.ingestion import (
    ChunkingConfig,
    EstimatingCounter,
    ParagraphNode,
    ParseLimits,
    SectionNode,
    chunk_document,
    detect_format,
    iter_nodes,
    parse_document,
)
from app.ingestion.tree import invariant_problems
from app.kit.errors import PayloadTooLarge, UnprocessableDocument
from tests.ingestion import samples


def _sections(parsed: object) -> list[tuple[int, str]]:
    root = parsed.root  # type: ignore[attr-defined]
    return [(n.level, n.title) for n in iter_nodes(root) if isinstance(n, SectionNode)]


def _paragraphs(node: object) -> list[str]:
    return [n.text for n in iter_nodes(node) if isinstance(n, ParagraphNode)]  # type: ignore[arg-type]


def _holds(parsed: object) -> None:
    assert invariant_problems(parsed.root, parsed.text) == []  # type: ignore[attr-defined]


def test_xlsx_sheets_are_sections_of_rows() -> None:
    parsed = parse_document(samples.xlsx_bytes(), filename="budget.xlsx")
    _holds(parsed)
    assert parsed.format == "xlsx"
    # The empty sheet is left out; the empty column B and the empty row are dropped.
    assert _sections(parsed) == [(1, "Budget"), (1, "People")]
    budget, people = parsed.root.children
    assert _paragraphs(budget) == [
        "Item | Cost | Owner",
        "Laptops | 1200 | Ann",
        "Desks | 300.5 | Bob",
        "Chairs | 80 | Bob",  # the merged D4:D5 repeats its value
    ]
    # A formula gives its cached value, not its source.
    assert _paragraphs(people)[-1] == "Total | 2"
    assert parsed.text[budget.range.start_offset : budget.range.end_offset].startswith("Budget")


def test_xlsx_rows_chunk_with_their_sheet_header() -> None:
    parsed = parse_document(samples.xlsx_bytes(), filename="budget.xlsx")
    chunks = chunk_document(
        parsed, ChunkingConfig(strategy="csv_rows", rows_per_chunk=2), EstimatingCounter()
    )
    assert [c.text.split("\n")[0] for c in chunks] == [
        "Item | Cost | Owner",
        "Item | Cost | Owner",
        "Name | Team",
    ]
    assert chunks[1].text == "Item | Cost | Owner\nChairs | 80 | Bob"
    assert [c.section_titles for c in chunks] == [["Budget"], ["Budget"], ["People"]]


def test_ods_sheet_with_repeated_rows() -> None:
    parsed = parse_document(samples.ods_bytes(), filename="stock.ods")
    _holds(parsed)
    assert parsed.format == "ods"
    assert _sections(parsed) == [(1, "Stock")]
    assert _paragraphs(parsed.root) == ["Fruit | Count", "Apple | 3", "Pear | 5", "Pear | 5"]


def test_sheet_cell_limit() -> None:
    with pytest.raises(PayloadTooLarge, match="cells"):
        parse_document(
            samples.xlsx_bytes(), filename="b.xlsx", limits=ParseLimits(max_sheet_cells=5)
        )


def test_pptx_slides_are_pages_with_notes() -> None:
    parsed = parse_document(samples.pptx_bytes(), filename="deck.pptx")
    _holds(parsed)
    assert parsed.format == "pptx"
    assert parsed.page_count == 3
    assert _sections(parsed) == [(1, "Roadmap"), (1, "Numbers"), (1, "Slide 3")]
    roadmap, numbers, third = parsed.root.children
    assert _paragraphs(roadmap) == [
        "Ship the importer in March.",
        "Notes: Mention the platypus migration budget.",
    ]
    assert _paragraphs(numbers) == ["Quarter | Revenue", "Q1 | 10"]
    # Reading order: the box higher on the slide first, whatever order it was added in.
    assert _paragraphs(third) == ["Upper text.", "Lower text."]
    assert [(s.page_start, s.page_end) for s in (roadmap, numbers, third)] == [
        (1, 1),
        (2, 2),
        (3, 3),
    ]


def test_epub_chapters_from_the_table_of_contents() -> None:
    parsed = parse_document(samples.epub_bytes(), filename="guide.epub")
    _holds(parsed)
    assert (parsed.format, parsed.title) == ("epub", "Field Guide")
    assert _sections(parsed) == [(1, "Owls"), (2, "Habitat"), (1, "Herons")]
    assert _paragraphs(parsed.root) == ["Owls nest in old barns.", "Herons wait in shallow water."]


def test_eml_headers_body_and_attachment() -> None:
    data = samples.eml_bytes(("numbers.csv", b"region,total\nnorth,12\n", "text", "csv"))
    parsed = parse_document(data, filename="mail.eml")
    _holds(parsed)
    assert (parsed.format, parsed.title) == ("eml", "Quarterly numbers")
    first = parsed.root.children[0]
    assert first.text.startswith("From: Ann <ann@example.com>\nTo: team@example.com")
    assert "The numbers are attached." in _paragraphs(parsed.root)
    assert _sections(parsed) == [(1, "Attachment: numbers.csv")]
    assert _paragraphs(parsed.root.children[-1]) == ["region | total", "north | 12"]


def test_json_records_are_sections() -> None:
    parsed = parse_document(samples.json_bytes(), filename="items.json")
    _holds(parsed)
    assert _sections(parsed) == [(1, "Kettle"), (1, "Toaster"), (1, "Record 3")]
    assert _paragraphs(parsed.root.children[0]) == [
        "id: 7",
        "title: Kettle",
        "specs.volume: 1.7 l",
        "tags[0]: kitchen",
    ]
    lines = b'{"name": "a", "v": 1}\n\n{"name": "b"}\n'
    jsonl = parse_document(lines, filename="items.jsonl")
    assert (jsonl.format, _sections(jsonl)) == ("jsonl", [(1, "a"), (1, "b")])
    with pytest.raises(UnprocessableDocument, match="line 2"):
        parse_document(b'{"a": 1}\n{broken\n', filename="bad.jsonl")


def test_rtf_and_odt() -> None:
    rtf = parse_document(samples.rtf_bytes(), filename="letter.rtf")
    _holds(rtf)
    assert _paragraphs(rtf.root) == ["First paragraph café.", "Second one."]
    odt = parse_document(samples.odt_bytes(), filename="handbook.odt")
    _holds(odt)
    assert _sections(odt) == [(1, "Intro"), (2, "Details")]
    assert _paragraphs(odt.root) == ["Welcome to the handbook.", "Details follow here."]


@pytest.mark.parametrize(
    ("builder", "expected"),
    [
        (samples.xlsx_bytes, "xlsx"),
        (samples.ods_bytes, "ods"),
        (samples.pptx_bytes, "pptx"),
        (samples.epub_bytes, "epub"),
        (samples.odt_bytes, "odt"),
        (samples.rtf_bytes, "rtf"),
    ],
)
def test_detected_by_content_whatever_the_name(builder: object, expected: str) -> None:
    assert detect_format(builder(), "upload.bin", None) == expected  # type: ignore[operator]


def _bomb(required: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(required, "<x/>")
        archive.writestr("filler.xml", b"\x00" * (8 * 1024 * 1024))
    return out.getvalue()


@pytest.mark.parametrize(
    ("required", "name"),
    [
        ("xl/workbook.xml", "a.xlsx"),
        ("ppt/presentation.xml", "a.pptx"),
        ("content.xml", "a.odt"),
        ("META-INF/container.xml", "a.epub"),
    ],
)
def test_zip_bombs_are_refused_before_inflating(required: str, name: str) -> None:
    with pytest.raises(UnprocessableDocument, match="zip bomb"):
        parse_document(_bomb(required), filename=name)


def test_xlsx_entities_are_not_expanded() -> None:
    data = samples.xlsx_bytes()
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    evil = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
    with zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                content = evil + content.split(b"?>", 1)[-1].replace(b"Laptops", b"&e;")
            target.writestr(item, content)
    # defusedxml refuses the DTD outright: the file fails, nothing is read from the disk.
    with pytest.raises(UnprocessableDocument, match="corrupt XLSX") as caught:
        parse_document(out.getvalue(), filename="evil.xlsx")
    assert "root:" not in caught.value.detail


def test_corrupt_containers_fail_readably() -> None:
    for name in ("a.xlsx", "a.pptx", "a.epub", "a.ods"):
        with pytest.raises(UnprocessableDocument, match="corrupt"):
            parse_document(b"PK\x03\x04 not really a zip", filename=name)


def test_deeply_nested_mail_and_json_fail_readably() -> None:
    body = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
        for i in range(3000)
    )
    with pytest.raises(UnprocessableDocument):
        parse_document(b"Subject: deep\r\n" + body + b"\r\nhello\r\n", filename="deep.eml")
    with pytest.raises(UnprocessableDocument, match="nested too deeply"):
        parse_document(b"[" * 100_000 + b"]" * 100_000, filename="deep.json")


def test_epub_external_entities_are_not_read() -> None:
    data = samples.epub_bytes()
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    doctype = b'<!DOCTYPE html [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
    with zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename.endswith("ch2.xhtml"):
                content = content.replace(b"<html", doctype + b"<html", 1)
                content = content.replace(b"shallow water", b"&e;")
            target.writestr(item, content)
    parsed = parse_document(out.getvalue(), filename="evil.epub")
    assert "root:" not in parsed.text
    assert "Herons wait in" in parsed.text
