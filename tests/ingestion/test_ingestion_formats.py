"""CSV, HTML, text decoding, and format detection."""

from __future__ import annotations

import codecs
import io
import zipfile

import pytest

from app.ingestion import (
    ParagraphNode,
    ParseLimits,
    SectionNode,
    detect_format,
    iter_nodes,
    parse_document,
    supported_formats,
)
from app.kit.errors import PayloadTooLarge, UnprocessableDocument, UnsupportedMediaType

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"


def _texts(parsed_root: object) -> list[str]:
    return [c.text for c in parsed_root.children]  # type: ignore[attr-defined]


# CSV


def test_csv_rows_become_paragraphs_under_the_root() -> None:
    data = b'name,city,note\nAda,London,"First, of many"\nAlan,"Man\nchester",\n\n,,\n'
    parsed = parse_document(data, filename="people.csv")
    assert parsed.format == "csv"
    assert parsed.csv_header == ["name", "city", "note"]
    assert parsed.text == "name | city | note\nAda | London | First, of many\nAlan | Man chester |"
    assert _texts(parsed.root) == parsed.text.split("\n")
    assert all(isinstance(c, ParagraphNode) and not c.children for c in parsed.root.children)


@pytest.mark.parametrize("delimiter", [";", "\t", "|"])
def test_csv_dialect_is_sniffed(delimiter: str) -> None:
    rows = [["a", "b", "c"], ["1", "2", "3"], ["4", "5", "6"]]
    data = "\n".join(delimiter.join(row) for row in rows).encode()
    parsed = parse_document(data, format="csv")
    assert parsed.csv_header == ["a", "b", "c"]
    assert parsed.text.split("\n")[2] == "4 | 5 | 6"


def test_single_column_csv_parses() -> None:
    parsed = parse_document(b"word\nalpha\nbeta\n", format="csv")
    assert parsed.text == "word\nalpha\nbeta"


def test_csv_row_and_field_caps() -> None:
    data = b"h\n" + b"".join(b"row%d\n" % n for n in range(20))
    with pytest.raises(PayloadTooLarge, match="rows"):
        parse_document(data, format="csv", limits=ParseLimits(max_csv_rows=10))
    wide = b"h\n" + b"x" * 500 + b"\n"
    with pytest.raises(PayloadTooLarge, match="field"):
        parse_document(wide, format="csv", limits=ParseLimits(max_csv_field_chars=100))
    huge = b'h\n"' + b"x" * 200_000 + b'"\n'
    with pytest.raises((PayloadTooLarge, UnprocessableDocument), match="field"):
        parse_document(huge, format="csv")


# HTML

PAGE = b"""<!DOCTYPE html>
<html><head><title>Field &amp; Guide</title>
<style>body { color: red }</style><script>alert("hidden script")</script></head>
<body>
<noscript><p>hidden noscript</p></noscript>
<template><p>hidden template</p></template>
<div style="color: red; DISPLAY: None !important"><p>hidden by style</p></div>
<nav hidden><p>hidden menu</p></nav><form><select><option>hidden option</option></select></form>
<p>Intro &eacute;l&egrave;ve text. Second sentence.</p>
<h1>Birds</h1>
<p>Birds fly.</p>
<h2>Owls</h2>
<ul><li>Barn owl</li><li>Snowy<br>owl</li></ul>
<h3>Habits</h3><blockquote>Owls hunt at night.</blockquote>
<h2>Ducks</h2>
<table><tr><th>Name</th><th>Size</th></tr><tr><td>Mallard</td><td>58 cm</td></tr></table>
<pre>  quack()
    quack()</pre>
<h1>Fish</h1><div>Fish swim.<svg><path d="M0"/><text>hidden svg</text></svg></div>
</body></html>"""


def test_html_headings_nest_and_blocks_become_paragraphs() -> None:
    parsed = parse_document(PAGE)
    assert parsed.format == "html"
    assert parsed.title == "Field & Guide"
    for hidden in ("hidden", "alert", "color: red"):
        assert hidden not in parsed.text
    root = parsed.root
    assert root.children[0].text == "Intro élève text. Second sentence."
    birds, fish = root.children[1], root.children[2]
    assert isinstance(birds, SectionNode)
    assert isinstance(fish, SectionNode)
    assert (birds.title, birds.level, fish.title) == ("Birds", 1, "Fish")
    owls, ducks = birds.children[1], birds.children[2]
    assert isinstance(owls, SectionNode)
    assert isinstance(ducks, SectionNode)
    assert _texts(owls)[:2] == ["- Barn owl", "- Snowy\nowl"]
    habits = owls.children[2]
    assert isinstance(habits, SectionNode)
    assert (habits.title, habits.level) == ("Habits", 3)
    assert _texts(habits) == ["Owls hunt at night."]
    assert _texts(ducks) == ["Name | Size", "Mallard | 58 cm", "quack()\n    quack()"]
    assert _texts(fish) == ["Fish swim."]
    for node in iter_nodes(root):
        assert node.text == parsed.text[node.range.start_offset : node.range.end_offset]


def test_an_empty_heading_still_ends_the_deeper_sections() -> None:
    """Text after an empty <h2> belongs to it, not to the <h3> section before it."""
    parsed = parse_document(
        b"<html><body><h1>Top</h1><h3>Deep</h3><p>Deep text.</p><h2> </h2>"
        b"<p>After the empty heading.</p></body></html>"
    )
    (top,) = parsed.root.children
    assert isinstance(top, SectionNode)
    deep, after = top.children
    assert isinstance(deep, SectionNode)
    assert _texts(deep) == ["Deep text."]
    assert after.text == "After the empty heading."
    with pytest.raises(UnprocessableDocument, match="empty"):
        parse_document(b"<html><body><h1></h1><h2> </h2></body></html>")


@pytest.mark.parametrize(
    "page",
    [
        # End tags a page may leave out: the hidden element would never be seen to close.
        b"<ul><li hidden>note<li>Step one.<li>Step two.</ul><p>Kept.</p>",
        b"<p style='display:none'>note<p>Step one. Step two.<h2>Kept.</h2>",
        b"<table><tr><td hidden>x<td>Step one.</tr></table><p>Step two. Kept.</p>",
        b"<audio><source src=a.ogg hidden></audio><p>Step one. Step two. Kept.</p>",
        b"<embed hidden src=x><p>Step one.</p><p>Step two. Kept.</p>",
        # A block around the hidden element closes it.
        b"<section><div hidden>internal</section><p>Step one. Step two. Kept.</p>",
        # Shown to the eye: aria-hidden hides from screen readers only; a visible child.
        b"<div aria-hidden='true'><p>Step one.</p></div><div style='visibility:hidden'>"
        b"<p style='visibility:visible'>Step two.</p></div><p>Kept.</p>",
        # Not display: none.
        b"<p style='display:none-ish'>Step one.</p><p style=\"content:'display:none'\">"
        b"Step two.</p><p>Kept.</p>",
    ],
)
def test_hiding_never_loses_what_a_browser_shows(page: bytes) -> None:
    text = parse_document(b"<html><body>" + page + b"</body></html>", format="html").text
    for shown in ("Step one.", "Step two.", "Kept."):
        assert shown in text, text
    assert "internal" not in text


def test_html_stray_tags_inside_dropped_elements_do_not_swallow_the_page() -> None:
    parsed = parse_document(b"<html><body><noscript><p>x</noscript><p>Visible.</p></body></html>")
    assert parsed.text == "Visible."


# Decoding


def test_invalid_utf8_names_the_byte() -> None:
    with pytest.raises(UnprocessableDocument, match="not valid UTF-8 at byte 6"):
        parse_document(b"hello \xff world", filename="a.txt")
    with pytest.raises(UnprocessableDocument, match="not valid UTF-8 at byte 9"):
        parse_document(codecs.BOM_UTF8 + b"hello \xc3(", filename="a.md")


@pytest.mark.parametrize("name", ["a.txt", "a.md", "a.csv", "a.html"])
def test_nul_bytes_are_unprocessable(name: str) -> None:
    with pytest.raises(UnprocessableDocument, match="NUL"):
        parse_document(b"text\x00more", filename=name)


@pytest.mark.parametrize("data", [b"", b"   \n\t\r\n", codecs.BOM_UTF8, b"<html></html>"])
def test_empty_documents_are_unprocessable(data: bytes) -> None:
    with pytest.raises(UnprocessableDocument, match="empty document"):
        parse_document(data, filename="empty.txt" if b"html" not in data else "e.html")


def test_bom_is_dropped_and_utf16_with_bom_is_read() -> None:
    assert parse_document(codecs.BOM_UTF8 + b"Hi there.", filename="a.txt").text == "Hi there."
    utf16 = "Grüße aus Köln.".encode("utf-16")
    assert parse_document(utf16, filename="a.txt").text == "Grüße aus Köln."


def test_upload_size_limit() -> None:
    with pytest.raises(PayloadTooLarge):
        parse_document(b"x" * 101, filename="a.txt", limits=ParseLimits(max_bytes=100))


# Detection


def _zip(names: list[str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in names:
            archive.writestr(name, "<x/>")
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("data", "filename", "content_type", "expected"),
    [
        (b"%PDF-1.7\n...", "misnamed.txt", "text/plain", "pdf"),
        (_zip(["[Content_Types].xml", "word/document.xml"]), None, None, "docx"),
        (b"  <!DOCTYPE html><p>x</p>", "page.txt", None, "html"),
        (b"<HTML><body>x</body></HTML>", None, None, "html"),
        (b"plain", "notes.md", None, "markdown"),
        (b"# Heading", "notes.txt", None, "text"),
        (b"a,b\n1,2", "data.CSV", None, "csv"),
        (b"<p>x</p>", "page.htm", None, "html"),
        (b"a,b", None, "text/csv; charset=utf-8", "csv"),
        (b"body", None, "text/markdown", "markdown"),
        (b"intro\n\n## Heading\n", None, "text/plain", "markdown"),
        (b"```\ncode\n```", None, None, "markdown"),
        (b"just words.\n# Heading", None, None, "markdown"),
        (b"```\n# in a fence\n```", "x", "application/octet-stream", "markdown"),
        (b"Just a sentence. #not-a-heading", None, None, "text"),
        (b"notes", "README", None, "text"),
    ],
)
def test_detect_format(
    data: bytes, filename: str | None, content_type: str | None, expected: str
) -> None:
    assert detect_format(data, filename, content_type) == expected


@pytest.mark.parametrize(
    ("data", "filename", "content_type"),
    [
        (b"GIF89a\x01\x00\x01\x00", "image.gif", "image/gif"),
        (b"GIF89a\x01\x00\x01\x00", "sneaky.txt", "text/plain"),
        (b"MZ\x90\x00\x03\x00\x00\x00", "tool.exe", "application/x-msdownload"),
        (b"\x7fELF\x02\x01\x01", None, None),
        (_zip(["a.txt"]), "archive.zip", "application/zip"),
        (_zip(["a.txt"]), "fake.docx", None),
        (b"PK\x03\x04broken", "archive.zip", None),
        (b"\x00\x01\x02\x03binary", "blob.bin", None),
        (b"OggS\x00\x02", "song.ogg", None),
    ],
)
def test_unsupported_content_is_415(
    data: bytes, filename: str | None, content_type: str | None
) -> None:
    with pytest.raises(UnsupportedMediaType) as caught:
        parse_document(data, filename=filename, content_type=content_type)
    assert caught.value.status == 415
    assert "supported formats: csv, docx, eml, epub, html, image, json" in caught.value.detail
    assert caught.value.extra["supported_formats"] == list(supported_formats())


def test_unknown_explicit_format_is_415() -> None:
    with pytest.raises(UnsupportedMediaType, match="'doc'"):
        parse_document(b"{\\rtf1}", format="doc")
