"""DOCX parsing: headings, lists, tables in order; XXE, zip bombs and damaged archives."""

from __future__ import annotations

import io
import os
import time
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path

import docx
import pytest
from docx.document import Document
from lxml import etree  # type: ignore[import-untyped]

from app.ingestion import ParagraphNode, ParseLimits, SectionNode, iter_nodes, parse_document
from app.kit.errors import PayloadTooLarge, UnprocessableDocument

SECRET = "TOPSECRET-XXE-MARKER"


def _docx_bytes(document: Document) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def _sample() -> bytes:
    document = docx.Document()
    document.add_paragraph("Annual Report", style="Title")
    document.add_paragraph("Opening words before any heading.")
    document.add_heading("Results", level=1)
    document.add_paragraph("Revenue grew. Costs fell.")
    document.add_heading("Regions", level=2)
    document.add_paragraph("North region", style="List Bullet")
    document.add_paragraph("South region", style="List Number")
    numbered = document.add_paragraph("Directly numbered item")
    num_pr = numbered._p.get_or_add_pPr().get_or_add_numPr()
    num_pr.get_or_add_ilvl().val = 0
    num_pr.get_or_add_numId().val = 1
    table = document.add_table(rows=3, cols=3)
    for r, row in enumerate([("Region", "Q1", "Q2"), ("North", "10", "12"), ("South", "7", "")]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    document.add_paragraph("After the table.")
    document.add_heading("Outlook", level=1)
    document.add_paragraph("Steady.")
    return _docx_bytes(document)


def _replace_part(data: bytes, name: str, transform: Callable[[bytes], bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == name:
                content = transform(content)
            target.writestr(item, content)
    return out.getvalue()


def test_headings_nest_and_lists_and_tables_keep_body_order() -> None:
    parsed = parse_document(_sample(), filename="report.docx")
    assert parsed.format == "docx"
    assert parsed.title == "Annual Report"
    title = parsed.root.children[0]
    assert isinstance(title, SectionNode)
    assert (title.title, title.level) == ("Annual Report", 0)
    assert [getattr(c, "title", None) for c in title.children] == [None, "Results", "Outlook"]
    results = title.children[1]
    assert isinstance(results, SectionNode)
    regions = results.children[1]
    assert isinstance(regions, SectionNode)
    assert (regions.title, regions.level) == ("Regions", 2)
    assert [c.text for c in regions.children] == [
        "- North region",
        "- South region",
        "- Directly numbered item",
        "Region | Q1 | Q2",
        "North | 10 | 12",
        "South | 7 |",
        "After the table.",
    ]
    row = regions.children[3]
    assert isinstance(row, ParagraphNode)
    assert row.children == []  # table rows are not cut into sentences
    assert "Region | Q1 | Q2\nNorth | 10 | 12" in parsed.text
    for node in iter_nodes(parsed.root):
        assert node.text == parsed.text[node.range.start_offset : node.range.end_offset]


def _with_doctype(doctype: str, reference: str) -> Callable[[bytes], bytes]:
    def transform(xml: bytes) -> bytes:
        declaration, rest = xml.split(b"?>", 1)
        rest = rest.replace(
            b"<w:t>Revenue grew. Costs fell.</w:t>", f"<w:t>{reference}</w:t>".encode()
        )
        return declaration + b"?>" + doctype.encode() + rest

    return transform


def test_external_entities_are_not_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    doctype = f'<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "{secret.as_uri()}">]>'
    data = _replace_part(_sample(), "word/document.xml", _with_doctype(doctype, "&xxe;"))
    # The payload is live: a parser that resolves entities would read the file.
    xml = zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml")
    resolving = etree.XMLParser(resolve_entities=True)
    assert SECRET in etree.tostring(etree.fromstring(xml, resolving)).decode()
    try:
        parsed = parse_document(data, filename="xxe.docx")
    except UnprocessableDocument:
        return
    assert SECRET not in parsed.text
    assert "Steady." in parsed.text


def test_billion_laughs_is_not_expanded() -> None:
    entities = '<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{n} "{("&lol" + (str(n - 1) if n > 1 else "") + ";") * 10}">'
        for n in range(1, 10)
    )
    doctype = f"<!DOCTYPE w:document [{entities}]>"
    data = _replace_part(_sample(), "word/document.xml", _with_doctype(doctype, "&lol9;"))
    started = time.perf_counter()
    try:
        parsed = parse_document(data, filename="laughs.docx")
    except UnprocessableDocument:
        return
    assert time.perf_counter() - started < 5
    assert "lollol" not in parsed.text


def _bomb(size_mb: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as part:
            block = b"0" * (1 << 20)
            for _ in range(size_mb):
                part.write(block)
    return buffer.getvalue()


@pytest.mark.parametrize(("size_mb", "reason"), [(300, "expands to"), (50, "zip bomb")])
def test_zip_bomb_is_refused_before_inflating(size_mb: int, reason: str) -> None:
    data = _bomb(size_mb)
    assert len(data) < size_mb * 1024 * 1024 // 100
    tracemalloc.start()
    try:
        with pytest.raises(UnprocessableDocument, match=reason):
            parse_document(data, filename="bomb.docx")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10 * 1024 * 1024


def test_too_many_entries_is_refused() -> None:
    with pytest.raises(UnprocessableDocument, match="zip entries"):
        parse_document(_sample(), filename="a.docx", limits=ParseLimits(max_zip_entries=5))


@pytest.mark.parametrize(
    "data",
    [
        _sample()[:4000],
        b"PK\x03\x04" + b"\x00garbage" * 100,
        _replace_part(_sample(), "word/document.xml", lambda xml: xml[: len(xml) // 2]),
    ],
    ids=["truncated", "garbage", "broken-xml"],
)
def test_corrupt_docx_is_unprocessable(data: bytes) -> None:
    with pytest.raises(UnprocessableDocument, match="corrupt"):
        parse_document(data, filename="broken.docx")


def test_zip_without_a_document_part_is_not_a_word_file() -> None:
    data = _replace_part(_sample(), "word/document.xml", lambda xml: xml)
    renamed = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(renamed, "w") as target:
        for item in source.infolist():
            name = "word/other.xml" if item.filename == "word/document.xml" else item.filename
            target.writestr(name, source.read(item.filename))
    with pytest.raises(UnprocessableDocument, match="not a DOCX document"):
        parse_document(renamed.getvalue(), format="docx")


def test_empty_docx_is_unprocessable() -> None:
    with pytest.raises(UnprocessableDocument, match="empty document"):
        parse_document(_docx_bytes(docx.Document()), filename="empty.docx")


def test_a_body_of_too_much_xml_is_refused_before_it_is_parsed() -> None:
    """150 MB of body XML took 1.1 GB in lxml before the text limit could say no."""
    filler = os.urandom(1024 * 1024).hex().encode()  # 2 MB that does not deflate like a bomb
    data = _replace_part(
        _sample(),
        "word/document.xml",
        lambda xml: xml.replace(b"</w:body>", b"<!--" + filler + b"--></w:body>"),
    )
    limits = ParseLimits.within(16 * 1024 * 1024)
    assert limits.max_docx_xml_bytes < len(filler)
    tracemalloc.start()
    try:
        with pytest.raises(PayloadTooLarge, match="ARBOR_INGEST_MEMORY_MB"):
            parse_document(data, filename="big.docx", limits=limits)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(data)
    assert parse_document(data, filename="big.docx").title == "Annual Report"


def test_the_text_limit_stops_extraction_as_it_goes() -> None:
    document = docx.Document()
    for index in range(400):
        document.add_paragraph(f"Paragraph {index} has a few words in it.")
    data = _docx_bytes(document)
    with pytest.raises(PayloadTooLarge, match="passed 1000 characters") as caught:
        parse_document(data, filename="long.docx", limits=ParseLimits(max_text_chars=1000))
    # Stopped at the first paragraph past the limit, not after all 400 were read.
    stopped_at = int(caught.value.detail.split("(at ")[1].split(" ")[0])
    assert 1000 < stopped_at < 1100
