"""EPUB via ebooklib: each spine document a chapter section, titled from the table of contents.

A chapter's own headings nest one level below it. The zip is inspected before ebooklib opens
it (it reads every item into memory); ebooklib parses its XML with `resolve_entities=False`,
and chapters are read by the standard library's HTML parser, which expands no entities.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterable
from typing import Any

from app.ingestion.builder import TextBuilder
from app.ingestion.parsers.archive import inspect_archive
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, finish
from app.ingestion.parsers.html import extract
from app.ingestion.parsers.nesting import append_blocks
from app.kit.errors import UnprocessableDocument


def _toc_titles(entries: Iterable[Any], found: dict[str, str], depth: int = 0) -> None:
    """Map each document's href (without #fragment) to its first title in the TOC."""
    if depth > 32:
        return
    for entry in entries:
        if isinstance(entry, tuple | list) and len(entry) == 2:
            section, children = entry
            _toc_titles([section], found, depth + 1)
            _toc_titles(children, found, depth + 1)
            continue
        href = getattr(entry, "href", None)
        title = getattr(entry, "title", None)
        if isinstance(href, str) and isinstance(title, str) and title.strip():
            found.setdefault(href.split("#", 1)[0], " ".join(title.split()))


def _walk(data: bytes) -> tuple[TextBuilder, str | None]:
    import ebooklib
    from ebooklib import epub

    with warnings.catch_warnings():
        # ebooklib announces future defaults with warnings on every read.
        warnings.simplefilter("ignore")
        book = epub.read_epub(io.BytesIO(data), options={"ignore_ncx": True})
    titles: dict[str, str] = {}
    _toc_titles(book.toc, titles)
    out = TextBuilder()
    number = 0
    for item_id, _linear in book.spine:
        item = book.get_item_with_id(item_id)
        if item is None or item.get_type() != ebooklib.ITEM_DOCUMENT:
            continue
        inner, page_title = extract(item.get_content().decode("utf-8", "replace"))
        if not inner.blocks:
            continue
        number += 1
        first_heading = next((b.title for b in inner.blocks if b.kind == "heading"), None)
        heading = titles.get(item.get_name()) or first_heading or page_title or f"Chapter {number}"
        first = inner.blocks[0]
        if first.kind == "heading" and first.title == heading:
            # The chapter opens with its own title: that heading is the chapter's section.
            append_blocks(out, inner, shift=1 - first.level)
        else:
            out.add(heading, kind="heading", level=1, title=heading)
            append_blocks(out, inner, shift=1)
    metadata = book.get_metadata("DC", "title")
    found_title = metadata[0][0] if metadata and isinstance(metadata[0][0], str) else None
    return out, (found_title or "").strip() or None


class EpubParser:
    """Parses EPUB 2 and 3 e-books."""

    format = "epub"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Inspect the zip, then read the spine's documents in reading order."""
        inspect_archive(data, limits, what="EPUB", required="META-INF/container.xml")
        try:
            out, found_title = _walk(data)
        except Exception as exc:  # ebooklib and lxml raise many types on malformed books
            raise UnprocessableDocument(f"corrupt EPUB: {exc}") from exc
        if not out.blocks:
            raise UnprocessableDocument("empty document: the e-book has no text")
        return finish(
            out.text(), out.blocks, format=self.format, title=title or found_title, limits=limits
        )
