"""Copy the blocks of one extracted text into another, one level deeper (EPUB, e-mail)."""

from __future__ import annotations

from app.ingestion.builder import TextBuilder

MAX_LEVEL = 9


def append_blocks(out: TextBuilder, inner: TextBuilder, *, shift: int) -> None:
    """Append `inner`'s headings and paragraphs to `out`, headings `shift` levels deeper
    (kept within levels 1 to 9, the levels a section may have)."""
    text = inner.text()
    for block in inner.blocks:
        level = max(1, min(block.level + shift, MAX_LEVEL))
        if block.kind == "boundary":
            out.add("", kind="heading", level=level)
        elif block.kind == "heading":
            out.add(text[block.start : block.end], kind="heading", level=level, title=block.title)
        else:
            out.add(
                text[block.start : block.end],
                split_sentences=block.split_sentences,
                confidence=block.confidence,
            )
