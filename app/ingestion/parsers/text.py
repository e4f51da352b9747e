"""Plain text: paragraphs on blank lines, sentences inside them."""

from __future__ import annotations

from app.ingestion import segment
from app.ingestion.builder import Block
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, decode_text, finish


def text_blocks(text: str) -> list[Block]:
    """Return one paragraph block for each run of non-blank lines."""
    return [Block("paragraph", start, end) for start, end in segment.blocks(text)]


class TextParser:
    """Parses UTF-8 plain text."""

    format = "text"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Decode and split into paragraphs and sentences."""
        text = decode_text(data, limits)
        return finish(text, text_blocks(text), format=self.format, title=title, limits=limits)
