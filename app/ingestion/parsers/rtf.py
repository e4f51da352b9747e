"""RTF via striprtf: the text without control words, paragraphs at blank lines and breaks."""

from __future__ import annotations

from app.ingestion import segment
from app.ingestion.builder import Block
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, finish, require_text
from app.kit.errors import UnprocessableDocument


class RtfParser:
    """Parses Rich Text Format documents."""

    format = "rtf"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Strip control words; `\\par` ends a paragraph."""
        from striprtf.striprtf import rtf_to_text

        if not data.lstrip().startswith(b"{\\rtf"):
            raise UnprocessableDocument("not an RTF document: it does not start with {\\rtf")
        # RTF is 7-bit; 8-bit bytes are escaped (\'e9) or \uN, so latin-1 loses nothing.
        try:
            text = str(rtf_to_text(data.decode("latin-1"), errors="replace"))  # type: ignore[no-untyped-call]
        except Exception as exc:  # striprtf raises on malformed escapes
            raise UnprocessableDocument(f"corrupt RTF: {exc}") from exc
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
        require_text(text)
        # One \par per paragraph, so every line break is a paragraph break.
        blocks = [
            Block("paragraph", s, e)
            for block_start, block_end in segment.blocks(text)
            for s, e in segment.lines(text, block_start, block_end)
        ]
        return finish(text, blocks, format=self.format, title=title, limits=limits)
