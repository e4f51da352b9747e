"""ODT (OpenDocument text) via odfpy: outline headings nest into sections, lists and tables
kept in body order. The zip is inspected first; odfpy parses with expat, which expands no
external entities and refuses entity amplification (billion laughs)."""

from __future__ import annotations

import io
from typing import Any

from app.ingestion.builder import TextBuilder
from app.ingestion.parsers.archive import inspect_archive
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, finish
from app.kit.errors import UnprocessableDocument

_MAX_DEPTH = 64


def _text(node: Any) -> str:
    from odf import teletype

    return str(teletype.extractText(node))


def _walk(node: Any, out: TextBuilder, depth: int, in_list: bool) -> None:
    from odf.namespaces import TEXTNS

    if depth > _MAX_DEPTH:
        return
    for child in node.childNodes:
        name = getattr(child, "qname", (None, None))[1]
        if name == "h":
            level = int(child.attributes.get((TEXTNS, "outline-level"), "1") or 1)
            title = " ".join(_text(child).split())
            out.add(title, kind="heading", level=max(1, min(level, 9)), title=title)
        elif name == "p":
            text = _text(child)
            out.add(("- " + text.strip()) if in_list and text.strip() else text)
        elif name in ("list", "list-item"):
            _walk(child, out, depth + 1, True)
        elif name == "table-row":
            cells = [
                " ".join(_text(cell).split())
                for cell in child.childNodes
                if getattr(cell, "qname", (None, None))[1] == "table-cell"
            ]
            line = " | ".join(cells)
            if line.replace("|", "").strip():
                out.add(line, split_sentences=False, separator="\n")
        elif name in ("table", "table-rows", "table-header-rows", "section", "span"):
            _walk(child, out, depth + 1, in_list)


class OdtParser:
    """Parses OpenDocument text documents."""

    format = "odt"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Inspect the zip, then walk the body in order."""
        from odf.opendocument import load

        inspect_archive(data, limits, what="ODT", required="content.xml")
        out = TextBuilder()
        try:
            document = load(io.BytesIO(data))
            _walk(document.text, out, 0, False)
        except Exception as exc:  # odfpy raises many types on malformed XML
            raise UnprocessableDocument(f"corrupt ODT: {exc}") from exc
        return finish(out.text(), out.blocks, format=self.format, title=title, limits=limits)
