"""PPTX via python-pptx: one section per slide, shapes in reading order, speaker notes kept.

A slide's section is titled by its title placeholder, else "Slide N"; its text frames,
tables (one `a | b` line per row) and grouped shapes follow top to bottom, left to right;
its speaker notes are its last paragraph, marked `Notes:`. Pages are slide numbers. python-pptx
parses XML with `resolve_entities=False`; the zip is inspected first, as for DOCX.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from app.ingestion.builder import TextBuilder
from app.ingestion.parsers.archive import inspect_archive
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, finish
from app.kit.errors import UnprocessableDocument

NOTES_PREFIX = "Notes: "
_MAX_GROUP_DEPTH = 16


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _reading_order(shapes: Any) -> list[Any]:
    # Shapes without a position (inherited from the layout) keep their z-order at the top.
    return sorted(shapes, key=lambda s: ((s.top or 0) // 10_000, s.left or 0))


def _shape_texts(shape: Any, depth: int = 0) -> Iterator[tuple[str, bool]]:
    """(text, is_table_row) pieces of one shape, groups walked in reading order."""
    if depth > _MAX_GROUP_DEPTH:
        return
    if getattr(shape, "shape_type", None) == 6 and hasattr(shape, "shapes"):  # a group
        for inner in _reading_order(shape.shapes):
            yield from _shape_texts(inner, depth + 1)
        return
    if getattr(shape, "has_table", False):
        for row in shape.table.rows:
            cells = [_one_line(cell.text) for cell in row.cells if not cell.is_spanned]
            line = " | ".join(cells)
            if line.replace("|", "").strip():
                yield line, True
        return
    if getattr(shape, "has_text_frame", False):
        for paragraph in shape.text_frame.paragraphs:
            text = "".join(run.text for run in paragraph.runs) or paragraph.text
            if text.strip():
                yield text.replace("\v", "\n"), False


def _slide_title(slide: Any) -> tuple[str | None, Any]:
    title_shape = slide.shapes.title
    if title_shape is None or not title_shape.has_text_frame:
        return None, None
    text = _one_line(title_shape.text_frame.text)
    return (text or None), title_shape


def _walk(data: bytes) -> tuple[TextBuilder, list[int], str | None]:
    from pptx import Presentation

    out = TextBuilder()
    offsets: list[int] = []
    deck = Presentation(io.BytesIO(data))
    for number, slide in enumerate(deck.slides, start=1):
        title, title_shape = _slide_title(slide)
        heading = title or f"Slide {number}"
        # The slide's page starts where its heading will: after the separator `add` writes.
        offsets.append(out.length + (2 if out.length else 0))
        out.add(heading, kind="heading", level=1, title=heading)
        for shape in _reading_order(slide.shapes):
            if title_shape is not None and shape.shape_id == title_shape.shape_id:
                continue
            previous_row = False
            for text, is_row in _shape_texts(shape):
                # A table's rows are lines of one block; the table itself starts a new one.
                separator = "\n" if is_row and previous_row else "\n\n"
                out.add(text, split_sentences=not is_row, separator=separator)
                previous_row = is_row
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame
            text = notes.text.strip() if notes is not None else ""
            if text:
                out.add(NOTES_PREFIX + text)
    core_title = deck.core_properties.title
    return out, offsets, (core_title or "").strip() or None


class PptxParser:
    """Parses PowerPoint 2007+ presentations."""

    format = "pptx"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Inspect the zip, then walk the slides in order."""
        inspect_archive(data, limits, what="PPTX", required="ppt/presentation.xml")
        try:
            out, offsets, found_title = _walk(data)
        except Exception as exc:  # python-pptx and lxml raise many types on malformed parts
            raise UnprocessableDocument(f"corrupt PPTX: {exc}") from exc
        if not offsets:
            raise UnprocessableDocument("empty document: the presentation has no slides")
        return finish(
            out.text(),
            out.blocks,
            format=self.format,
            title=title or found_title,
            limits=limits,
            page_offsets=offsets,
        )
