"""Hierarchical chunking: pack the leaves of one section at a time, never across sections.

A group is a run of consecutive non-section children of one container (the root, a section or
a topic), flattened to its leaves (sentences, or paragraphs without sentences); a section
with no children is a group of its own (its heading line is all its text). A group whose
leaves hold fewer than `min_tokens` tokens is merged into the next group when that group is
its sibling section or its container's first subsection; the chunk's lineage then names their
common ancestor, since it is the deepest node holding the whole chunk, and its `spans` name
each merged run's own section and range.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from app.ingestion.chunking.base import ChunkContext, RawChunk, SpanPart
from app.ingestion.chunking.packing import Packer, Pieces
from app.ingestion.segment import Span
from app.ingestion.tree import (
    Node,
    ParagraphNode,
    SectionNode,
    SentenceNode,
    TopicNode,
    children_of,
)

HEADING_SEPARATOR = " > "


@dataclass(slots=True)
class _Group:
    path: list[Node]  # root .. the container of the last merged run
    spans: list[Span] = field(default_factory=list)
    common: list[Node] = field(default_factory=list)  # root .. deepest shared container
    # Each merged run: its container's path and its first and last span index.
    runs: list[tuple[list[Node], int, int]] = field(default_factory=list)


def _leaf_spans(node: ParagraphNode | SentenceNode) -> list[Span]:
    kids = children_of(node)
    targets = kids if kids else [node]
    return [(leaf.range.start_offset, leaf.range.end_offset) for leaf in targets]


def _collect(path: list[Node], groups: list[_Group]) -> None:
    container = path[-1]
    run = _Group(path)
    for child in children_of(container):
        if isinstance(child, SectionNode | TopicNode):
            if run.spans:
                groups.append(run)
                run = _Group(path)
            if children_of(child):
                _collect([*path, child], groups)
            else:
                span = (child.range.start_offset, child.range.end_offset)
                groups.append(_Group([*path, child], [span]))
        else:
            run.spans.extend(_leaf_spans(child))
    if run.spans:
        groups.append(run)


def _mergeable(left: _Group, right: _Group) -> bool:
    last, nxt = left.path, right.path
    # `right` is the first subsection of `left`'s container, or its sibling.
    return len(nxt) >= 2 and (nxt[-2] is last[-1] or (len(last) >= 2 and nxt[-2] is last[-2]))


def _common(a: list[Node], b: list[Node]) -> list[Node]:
    shared: list[Node] = []
    for x, y in zip(a, b, strict=False):
        if x is not y:
            break
        shared.append(x)
    return shared


def _merge_tiny(ctx: ChunkContext, groups: list[_Group]) -> list[_Group]:
    merged: list[_Group] = []
    tokens: list[int] = []
    for group in groups:
        size = sum(ctx.budget_tokens(*span) for span in group.spans)
        if merged and tokens[-1] < ctx.config.min_tokens and _mergeable(merged[-1], group):
            previous = merged[-1]
            previous.common = _common(previous.common, group.path)
            previous.path = group.path
            first = len(previous.spans)
            previous.spans.extend(group.spans)
            previous.runs.append((group.path, first, len(previous.spans) - 1))
            tokens[-1] += size
        else:
            group.common = list(group.path)
            group.runs = [(group.path, 0, len(group.spans) - 1)]
            merged.append(group)
            tokens.append(size)
    return merged


def _with_parts(group: _Group, chunk: RawChunk) -> RawChunk:
    """Name the merged runs a chunk holds text of, when it holds more than one."""
    parts: list[SpanPart] = []
    for path, first, last in group.runs:
        start = max(group.spans[first][0], chunk.start)
        end = min(group.spans[last][1], chunk.end)
        if start < end:
            parts.append(SpanPart(tuple(path), start, end))
    return replace(chunk, parts=tuple(parts)) if len(parts) > 1 else chunk


def _heading_prefix(ctx: ChunkContext, path: list[Node]) -> str:
    titles = [node.title for node in path if isinstance(node, SectionNode) and node.title]
    if not ctx.config.include_headings or not titles:
        return ""
    prefix = HEADING_SEPARATOR.join(titles) + "\n\n"
    # A heading path that eats half the window would leave too little room for content.
    if ctx.counter.count_tokens(prefix) > ctx.max_tokens // 2:
        return ""
    return prefix


def chunk_hierarchical(ctx: ChunkContext) -> list[RawChunk]:
    """Chunk section by section, leaves packed up to max_tokens with sentence overlap."""
    groups: list[_Group] = []
    _collect([ctx.parsed.root], groups)
    chunks: list[RawChunk] = []
    for group in _merge_tiny(ctx, groups):
        packer = Packer(ctx, prefix=_heading_prefix(ctx, group.common))
        pieces = Pieces()
        for span in group.spans:
            pieces.extend(packer.pieces(*span))
        packed = packer.pack(pieces, overlap=ctx.config.overlap_tokens)
        chunks.extend(_with_parts(group, chunk) for chunk in packed)
    return chunks
