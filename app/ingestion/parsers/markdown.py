"""Markdown: ATX headings nest into sections, fenced code stays whole, blank lines part blocks."""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.ingestion import segment
from app.ingestion.builder import Block
from app.ingestion.parsers.base import ParsedDocument, ParseLimits, decode_text, finish

_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))??(?:[ \t]+#+)?[ \t]*")
_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
_FENCE_CLOSE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*")


@dataclass(slots=True)
class _Fence:
    char: str
    length: int
    start: int


def _fence_opens(line: str) -> _Fence | None:
    match = _FENCE_OPEN.fullmatch(line)
    if match is None:
        return None
    marker = match.group(1)
    if marker[0] == "`" and "`" in match.group(2):
        return None  # "```code```" on one line is inline code, not a fence
    return _Fence(marker[0], len(marker), 0)


def _fence_closes(line: str, fence: _Fence) -> bool:
    match = _FENCE_CLOSE.fullmatch(line)
    return (
        match is not None
        and match.group(1)[0] == fence.char
        and len(match.group(1)) >= (fence.length)
    )


def scan(text: str) -> list[Block]:
    """Return the heading, paragraph and code blocks of a markdown text, in order."""
    found: list[Block] = []
    para: tuple[int, int] | None = None
    fence: _Fence | None = None

    def close_paragraph() -> None:
        nonlocal para
        if para is not None:
            found.extend(Block("paragraph", s, e) for s, e in segment.blocks(text, *para))
            para = None

    position = 0
    for line in text.split("\n"):
        start, end = position, position + len(line)
        position = end + 1
        if fence is not None:
            if _fence_closes(line, fence):
                _add_code(found, text, fence.start, end)
                fence = None
            continue
        opened = _fence_opens(line)
        if opened is not None:
            close_paragraph()
            opened.start = start
            fence = opened
            continue
        heading = _ATX.fullmatch(line)
        if heading is not None:
            close_paragraph()
            span = segment.trim(text, start, end)
            if span is not None:
                title = (heading.group(2) or "").strip()
                found.append(Block("heading", *span, level=len(heading.group(1)), title=title))
            continue
        if not line.strip():
            close_paragraph()
        elif para is None:
            para = (start, end)
        else:
            para = (para[0], end)
    close_paragraph()
    if fence is not None:
        _add_code(found, text, fence.start, len(text))  # an unclosed fence runs to the end
    return found


def _add_code(found: list[Block], text: str, start: int, end: int) -> None:
    span = segment.trim(text, start, end)
    if span is not None:
        found.append(Block("paragraph", *span, split_sentences=False))


def looks_like_markdown(text: str) -> bool:
    """Say whether the text has an ATX heading outside code or a fenced code block."""
    return any(block.kind == "heading" or not block.split_sentences for block in scan(text))


def first_title(blocks: list[Block]) -> str | None:
    """Return the title of the first level-1 heading, if any."""
    return next((b.title for b in blocks if b.kind == "heading" and b.level == 1 and b.title), None)


class MarkdownParser:
    """Parses UTF-8 markdown."""

    format = "markdown"

    def parse(self, data: bytes, *, title: str | None, limits: ParseLimits) -> ParsedDocument:
        """Decode and parse markdown."""
        text = decode_text(data, limits)
        blocks = scan(text)
        return finish(
            text, blocks, format=self.format, title=title or first_title(blocks), limits=limits
        )
