"""Build a document tree from a flat list of heading and paragraph blocks."""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from app.ingestion import segment
from app.ingestion.tree import (
    ChildNode,
    DocumentNode,
    NodeKind,
    NodeRange,
    ParagraphNode,
    SectionNode,
    SentenceNode,
    fields_set,
    make_node_id,
)


@dataclass(frozen=True, slots=True)
class Block:
    """A heading or paragraph found by a parser, with its trimmed range in the text; or a
    boundary, an empty heading (HTML, DOCX): it holds no text and makes no section, but it
    still ends the sections of its level and deeper, as a heading does."""

    kind: Literal["heading", "paragraph", "boundary"]
    start: int
    end: int
    level: int = 0
    title: str = ""
    # Code, table rows and CSV rows are kept whole: sentence rules would only cut them badly.
    split_sentences: bool = True
    # OCR confidence of the block's text (0..1); None for text the document carried as text.
    confidence: float | None = None


@dataclass(slots=True)
class _Draft:
    kind: NodeKind
    start: int
    end: int
    title: str = ""
    level: int = 0
    children: list[_Draft] = field(default_factory=list)
    confidence: float | None = None


# Nodes are built with `model_construct`, not validated: the builder makes every field from
# ranges it has checked, and validating a tree of 100,000 sentences doubled its memory.
# Nodes of one shape share one field-name set (`fields_set`). The fields given are those
# validating the same dict would mark as set, so a node dumps the same either way.


class _Freezer:
    def __init__(self, text: str, page_offsets: Sequence[int] | None) -> None:
        self.text = text
        self.digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        self.page_offsets = page_offsets

    def pages(self, start: int, end: int) -> tuple[int | None, int | None]:
        return page_span(self.page_offsets, start, end)

    def common(self, draft: _Draft, path: str) -> dict[str, Any]:
        page_start, page_end = self.pages(draft.start, draft.end)
        fields: dict[str, Any] = {
            "node_id": make_node_id(self.digest, draft.kind, draft.start, draft.end, path),
            "range": NodeRange(draft.start, draft.end),
            "text": self.text[draft.start : draft.end],
            "page_start": page_start,
            "page_end": page_end,
        }
        if draft.confidence is not None:
            fields["confidence"] = draft.confidence
        return fields

    def sentence(self, draft: _Draft, path: str) -> SentenceNode:
        fields = self.common(draft, path)
        return SentenceNode.model_construct(fields_set(fields), **fields)

    def child(self, draft: _Draft, path: str) -> ChildNode:
        if draft.kind is NodeKind.SENTENCE:
            return self.sentence(draft, path)
        fields = self.common(draft, path)
        if draft.kind is NodeKind.PARAGRAPH:
            sentences = [self.sentence(kid, f"{path}.{i}") for i, kid in enumerate(draft.children)]
            return ParagraphNode.model_construct(
                fields_set(fields, "children"), **fields, children=sentences
            )
        kids = [self.child(kid, f"{path}.{i}") for i, kid in enumerate(draft.children)]
        return SectionNode.model_construct(
            fields_set(fields, "title", "level", "children"),
            **fields,
            title=draft.title,
            level=draft.level,
            children=kids,
        )


def page_span(
    page_offsets: Sequence[int] | None, start: int, end: int
) -> tuple[int | None, int | None]:
    """Return the 1-based first and last page of `[start, end)`, or Nones without a page map."""
    if not page_offsets:
        return None, None
    first = bisect.bisect_right(page_offsets, start)
    last = bisect.bisect_right(page_offsets, max(start, end - 1))
    return max(first, 1), max(last, 1)


def _paragraph(text: str, block: Block) -> _Draft:
    draft = _Draft(NodeKind.PARAGRAPH, block.start, block.end, confidence=block.confidence)
    if block.split_sentences:
        spans = segment.sentences(text, block.start, block.end)
        # One sentence would only repeat its paragraph, so the paragraph stays the leaf.
        if len(spans) > 1:
            draft.children = [
                _Draft(NodeKind.SENTENCE, s, e, confidence=block.confidence) for s, e in spans
            ]
    return draft


def build_tree(
    text: str,
    blocks: Sequence[Block],
    *,
    title: str | None,
    page_offsets: Sequence[int] | None = None,
) -> DocumentNode:
    """Nest headings by level (an equal or higher level closes a section) and freeze the tree."""
    root = _Draft(NodeKind.DOCUMENT, 0, len(text))
    open_sections: list[_Draft] = []
    for block in blocks:
        if block.kind == "boundary":
            _close_sections(open_sections, block.level)
            continue
        if not (0 <= block.start < block.end <= len(text)):
            raise ValueError(f"block range {block.start}..{block.end} is outside the text")
        # What validating the nodes checked, which `model_construct` does not.
        if not 0 <= block.level <= 9 or not 0 <= (block.confidence or 0) <= 1:
            raise ValueError(f"block level {block.level} or confidence {block.confidence}")
        if block.kind == "heading":
            _close_sections(open_sections, block.level)
            node = _Draft(
                NodeKind.SECTION, block.start, block.end, title=block.title, level=block.level
            )
        else:
            node = _paragraph(text, block)
        (open_sections[-1] if open_sections else root).children.append(node)
        # A section ends where its last content ends, whatever depth that content sits at.
        for section in open_sections:
            section.end = block.end
        if block.kind == "heading":
            open_sections.append(node)

    freezer = _Freezer(text, page_offsets)
    fields = freezer.common(root, "")
    kids = [freezer.child(kid, str(i)) for i, kid in enumerate(root.children)]
    return DocumentNode.model_construct(
        fields_set(fields, "title", "children"), **fields, title=title, children=kids
    )


def _close_sections(open_sections: list[_Draft], level: int) -> None:
    while open_sections and open_sections[-1].level >= level:
        open_sections.pop()


class TextBuilder:
    """Assemble extracted text from pieces and record a block for each piece."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self.blocks: list[Block] = []

    @property
    def length(self) -> int:
        """The length of the text so far."""
        return self._length

    def raw(self, piece: str) -> None:
        """Append text that belongs to no block (a separator)."""
        self._parts.append(piece)
        self._length += len(piece)

    def add(
        self,
        piece: str,
        *,
        kind: Literal["heading", "paragraph"] = "paragraph",
        level: int = 0,
        title: str = "",
        split_sentences: bool = True,
        separator: str = "\n\n",
        confidence: float | None = None,
    ) -> None:
        """Append a stripped piece as a block after `separator`; blank pieces are dropped (a
        blank heading leaves a boundary)."""
        piece = piece.strip()
        if not piece:
            if kind == "heading":
                self.blocks.append(Block("boundary", self._length, self._length, level))
            return
        if self._parts:
            self.raw(separator)
        start = self._length
        self.raw(piece)
        self.blocks.append(
            Block(
                kind,
                start,
                self._length,
                level,
                title,
                split_sentences=split_sentences,
                confidence=confidence,
            )
        )

    def text(self) -> str:
        """Return the text assembled so far."""
        return "".join(self._parts)
