"""DOCX via python-docx: headings nest into sections, lists and table rows stay in body order.

The zip is inspected before python-docx opens it, because python-docx reads every part into
memory: a zip bomb must fail on its declared sizes, which zipfile also enforces when reading
(it stops at the declared size and then fails the CRC check). XML entities are never expanded:
python-docx parses with `resolve_entities=False`, the body stream below too, and a test holds
them to that.

The body (`word/document.xml`) is not parsed whole: lxml's tree of it cost about ten bytes per
byte of XML, more than the document's text and tree together. python-docx opens every other
part as usual (styles, numbering, properties) around an empty body, and the body's XML is read
as a stream of its paragraphs and tables, each wrapped in python-docx's own classes (so style
names, lists and merged cells read exactly as before) and dropped once its text is taken.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import cast

from docx.document import Document
from docx.opc.constants import CONTENT_TYPE as CT
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.package import Unmarshaller
from docx.opc.packuri import PackURI
from docx.opc.part import Part, PartFactory
from docx.opc.pkgreader import PackageReader
from docx.oxml.ns import qn
from docx.oxml.parser import element_class_lookup
from docx.oxml.table import CT_Tbl
from docx.oxml.text.paragraph import CT_P
from docx.package import Package
from docx.parts.document import DocumentPart
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml import etree

from app.ingestion.builder import TextBuilder
from app.ingestion.parsers.archive import inspect_archive
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, check_text_size, finish
from app.kit.errors import PayloadTooLarge, UnprocessableDocument

DOCUMENT_PART = "word/document.xml"
_HEADING = re.compile(r"Heading ([1-9])")


def inspect_zip(data: bytes, limits: ParseLimits) -> None:
    """Refuse a corrupt or hostile zip from its central directory, before inflating anything."""
    part = inspect_archive(data, limits, what="DOCX", required=DOCUMENT_PART)[DOCUMENT_PART]
    # python-docx parses the body's XML whole: about ten bytes of memory per byte of XML
    # (150 MB of it took 1.1 GB before the text limit could say no).
    if part.file_size > limits.max_docx_xml_bytes:
        raise PayloadTooLarge(
            f"the DOCX body ({DOCUMENT_PART}) is {part.file_size} bytes of XML; the limit is "
            f"{limits.max_docx_xml_bytes}"
            + (
                f" for the {limits.memory_bytes // (1024 * 1024)} MiB one document may use "
                "(ARBOR_INGEST_MEMORY_MB)"
                if limits.memory_bytes
                else ""
            )
        )


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _is_list(paragraph: Paragraph, style_name: str) -> bool:
    if style_name.startswith("List"):
        return True
    properties = paragraph._p.pPr
    return properties is not None and properties.numPr is not None


def _add_paragraph(out: TextBuilder, paragraph: Paragraph) -> str | None:
    """Add one paragraph; return its text when it is a Title-style paragraph."""
    style_name = (paragraph.style.name if paragraph.style is not None else None) or ""
    text = paragraph.text
    heading = _HEADING.fullmatch(style_name)
    if style_name == "Title" or heading is not None:
        # "Title" sits above "Heading 1", so it opens a level-0 section.
        level = int(heading.group(1)) if heading is not None else 0
        out.add(text, kind="heading", level=level, title=_one_line(text))
        return _one_line(text) if heading is None else None
    if _is_list(paragraph, style_name) and text.strip():
        text = "- " + text.strip()
    out.add(text)
    return None


def _add_table(out: TextBuilder, table: Table) -> None:
    first = True
    for row in table.rows:
        cells: list[str] = []
        seen: set[int] = set()
        for cell in row.cells:
            # A merged cell is returned once for every grid column it spans.
            if id(cell._tc) in seen:
                continue
            seen.add(id(cell._tc))
            cells.append(_one_line(cell.text))
        line = " | ".join(cells)
        if line.replace("|", "").strip():
            out.add(line, split_sentences=False, separator="\n\n" if first else "\n")
            first = False


_EMPTY_BODY = (
    b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    b"<w:body/></w:document>"
)
_BODY = qn("w:body")


class _Opened:
    """The package with an empty main document, and the main document's real XML."""

    def __init__(self, data: bytes) -> None:
        self.body_xml: bytes | None = None
        package = Package()
        reader = PackageReader.from_file(io.BytesIO(data))  # type: ignore[no-untyped-call]
        Unmarshaller.unmarshal(reader, package, self._part)  # type: ignore[no-untyped-call]
        part = package.main_document_part
        # As docx.Document checks: a macro-enabled document or a template is not read.
        if part.content_type != CT.WML_DOCUMENT_MAIN or self.body_xml is None:
            raise ValueError(f"not a Word file, content type is {part.content_type!r}")
        self.document: Document = cast(DocumentPart, part).document

    def _part(
        self, partname: PackURI, content_type: str, reltype: str, blob: bytes, package: Package
    ) -> Part:
        if reltype == RT.OFFICE_DOCUMENT and content_type == CT.WML_DOCUMENT_MAIN:
            self.body_xml = blob
            blob = _EMPTY_BODY
        return cast(Part, PartFactory(partname, content_type, reltype, blob, package))

    def items(self) -> Iterator[Paragraph | Table]:
        """The body's paragraphs and tables in order, as `Document.iter_inner_content` gives
        them (direct children of `w:body` only), each dropped from the tree once read."""
        assert self.body_xml is not None
        xml, self.body_xml = self.body_xml, None
        parent = self.document._body
        events = etree.iterparse(
            io.BytesIO(xml),
            events=("end",),
            tag=(qn("w:p"), qn("w:tbl")),
            remove_blank_text=True,
            resolve_entities=False,
        )
        # The classes python-docx's own parser gives these elements (CT_P, CT_Tbl, ...).
        events.set_element_class_lookup(element_class_lookup)
        for _, element in events:
            body = element.getparent()
            if body is None or body.tag != _BODY:
                continue  # a paragraph inside a table cell: read with its table
            if isinstance(element, CT_P):
                yield Paragraph(element, parent)
            elif isinstance(element, CT_Tbl):
                yield Table(element, parent)
            # Everything up to here in the body has been read.
            for previous in list(element.itersiblings(preceding=True)):
                body.remove(previous)
            body.remove(element)


def _walk(data: bytes, limits: ParseLimits) -> tuple[TextBuilder, str | None]:
    out = TextBuilder()
    title: str | None = None
    opened = _Opened(data)
    document = opened.document
    for item in opened.items():
        if isinstance(item, Paragraph):
            found = _add_paragraph(out, item)
            title = title or found
        else:
            _add_table(out, item)
        # While walking: the 135 million characters of a hostile body were all extracted
        # before the limit was checked.
        check_text_size(out.length, limits)
    core_title = document.core_properties.title
    return out, (core_title.strip() or None if core_title else None) or title


class DocxParser:
    """Parses Word 2007+ documents."""

    format = "docx"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Inspect the zip, then walk the body's paragraphs and tables in order."""
        inspect_zip(data, limits)
        try:
            out, found_title = _walk(data, limits)
        except PayloadTooLarge:
            raise
        # python-docx and lxml raise many types on malformed parts; all mean a bad file here.
        except Exception as exc:
            raise UnprocessableDocument(f"corrupt DOCX: {exc}") from exc
        text = out.text()
        return finish(
            text, out.blocks, format=self.format, title=title or found_title, limits=limits
        )
