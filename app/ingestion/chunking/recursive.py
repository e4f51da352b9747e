"""Recursive character chunking, and markdown chunking (headings first, then recursive).

`recursive` cuts text at the coarsest separator that brings every piece under `max_chars`
(default: paragraphs, then lines, then sentences, then words; or the `separators` given, as
literal strings), then packs consecutive pieces greedily up to `max_chars`, each chunk
starting with up to `overlap_chars` of the previous one's trailing pieces. The token budget
(`max_tokens`) holds as well. `markdown` first cuts at every section heading of the tree
(markdown `#`, HTML `h1`-`h6`, DOCX headings, slides, sheets), so no chunk spans two sections,
then cuts each section's own text recursively. Chunks stay contiguous slices of the text.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from app.ingestion import segment
from app.ingestion.chunking.base import ChunkContext, RawChunk
from app.ingestion.chunking.packing import Packer
from app.ingestion.segment import Span
from app.ingestion.tree import SectionNode, iter_nodes

Splitter = Callable[[str, int, int], list[Span]]
DEFAULT_SPLITTERS: tuple[Splitter, ...] = (
    segment.blocks,
    segment.lines,
    segment.sentences,
    segment.words,
)
DEFAULT_OVERLAP_CHARS = 50


def _literal(separator: str) -> Splitter:
    def split(text: str, start: int, end: int) -> list[Span]:
        cuts: list[int] = []
        position = text.find(separator, start, end)
        while position >= 0:
            cuts.extend((position, position + len(separator)))
            position = text.find(separator, position + len(separator), end)
        bounds = [start, *cuts, end]
        spans = [segment.trim(text, bounds[i], bounds[i + 1]) for i in range(0, len(bounds), 2)]
        return [span for span in spans if span is not None]

    return split


class _Recursive:
    def __init__(self, ctx: ChunkContext) -> None:
        self.ctx = ctx
        self.packer = Packer(ctx)
        config = ctx.config
        self.max_chars = config.max_chars
        self.overlap = (
            config.overlap_chars
            if "overlap_chars" in config.model_fields_set
            else DEFAULT_OVERLAP_CHARS
        )
        self.splitters: tuple[Splitter, ...] = (
            tuple(_literal(s) for s in config.separators)
            if config.separators is not None
            else DEFAULT_SPLITTERS
        )

    def fits(self, start: int, end: int) -> bool:
        return end - start <= self.max_chars and self.packer.fits(start, end)

    def pieces(self, start: int, end: int, level: int = 0) -> list[Span]:
        """Cut `[start, end)` at the coarsest separator whose parts fit (recursing on those
        that still do not)."""
        if self.fits(start, end):
            return [(start, end)]
        for depth in range(level, len(self.splitters)):
            parts = self.splitters[depth](self.ctx.source, start, end)
            if len(parts) > 1:
                return [piece for part in parts for piece in self.pieces(*part, depth + 1)]
        return self._cut(start, end)

    def _cut(self, start: int, end: int) -> list[Span]:
        # No separator left: cut at max_chars (and the token budget), the last resort.
        found: list[Span] = []
        while start < end:
            cut = min(start + self.max_chars, end)
            while cut > start + 1 and not self.packer.fits(start, cut):
                cut = start + (cut - start) * 3 // 4
            found.append((start, cut))
            start = cut
        return found

    def pack(self, pieces: list[Span]) -> list[RawChunk]:
        chunks: list[RawChunk] = []
        i = 0
        while i < len(pieces):
            start = pieces[i][0]
            j = i + 1
            while j < len(pieces) and self.fits(start, pieces[j][1]):
                j += 1
            chunks.append(RawChunk(start, pieces[j - 1][1]))
            if j >= len(pieces):
                break
            # Overlap: the trailing pieces of this chunk within overlap_chars that still
            # leave room for the next piece; never the whole chunk again.
            k = j
            while (
                k - 1 > i
                and pieces[j - 1][1] - pieces[k - 1][0] <= self.overlap
                and self.fits(pieces[k - 1][0], pieces[j][1])
            ):
                k -= 1
            i = k
        return chunks

    def chunk(self, start: int, end: int) -> list[RawChunk]:
        span = segment.trim(self.ctx.source, start, end)
        return self.pack(self.pieces(*span)) if span is not None else []


def chunk_recursive(ctx: ChunkContext) -> list[RawChunk]:
    """Recursive splitting of the whole text, up to `max_chars` with `overlap_chars`."""
    return _Recursive(ctx).chunk(0, len(ctx.source))


def chunk_markdown(ctx: ChunkContext) -> list[RawChunk]:
    """Cut at every section heading first, then each part recursively."""
    starts = sorted(
        {
            node.range.start_offset
            for node in iter_nodes(ctx.parsed.root)
            if isinstance(node, SectionNode)
        }
    )
    bounds = [0, *[s for s in starts if s > 0], len(ctx.source)]
    splitter = _Recursive(ctx)
    return [
        chunk for left, right in itertools.pairwise(bounds) for chunk in splitter.chunk(left, right)
    ]
