"""Cut spans into pieces that fit a token budget, and pack pieces greedily with overlap."""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import overload

from app.ingestion import segment
from app.ingestion.chunking.base import MAX_CHARS_PER_TOKEN, ChunkContext, RawChunk
from app.ingestion.segment import Span

Splitter = Callable[[str, int, int], list[Span]]
# Finer and finer cuts for a span over budget: sentences, then lines (code), then words
# (`segment.iter_words`, read lazily).
SPLITTERS: tuple[Splitter, ...] = (segment.sentences, segment.lines, segment.words)


@dataclass(frozen=True, slots=True)
class Piece:
    """A trimmed span of the source and its token count (special tokens excluded)."""

    start: int
    end: int
    tokens: int


class Pieces(Sequence[Piece]):
    """Pieces kept in three integer arrays, 24 bytes each: a sentence without an end (a 10 MB
    line) is cut word by word into millions of them, which as objects, with the list of word
    spans they came from, took some 400 MB."""

    def __init__(self) -> None:
        self._starts = array("q")
        self._ends = array("q")
        self._tokens = array("q")

    def append(self, piece: Piece) -> None:
        self._starts.append(piece.start)
        self._ends.append(piece.end)
        self._tokens.append(piece.tokens)

    def extend(self, pieces: Iterable[Piece]) -> None:
        for piece in pieces:
            self.append(piece)

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> Piece: ...

    @overload
    def __getitem__(self, index: slice) -> list[Piece]: ...

    def __getitem__(self, index: int | slice) -> Piece | list[Piece]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return Piece(self._starts[index], self._ends[index], self._tokens[index])


class Packer:
    """Packs the pieces of one group (one section's run of leaves) into chunks."""

    def __init__(self, ctx: ChunkContext, *, prefix: str = "") -> None:
        self.ctx = ctx
        self.prefix = prefix
        prefix_tokens = ctx.counter.count_tokens(prefix) - ctx.overhead if prefix else 0
        self.limit = max(ctx.max_tokens - ctx.overhead - prefix_tokens, 1)

    def pieces(self, start: int, end: int) -> Sequence[Piece]:
        """Return `[start, end)` whole when it fits the budget, else cut finer until it does."""
        tokens = self.ctx.budget_tokens(start, end)
        if tokens <= self.limit:
            return [Piece(start, end, tokens)]
        for split in SPLITTERS:
            if split is segment.words:
                break
            parts = split(self.ctx.source, start, end)
            if len(parts) > 1:
                found = Pieces()
                for part in parts:
                    found.extend(self.pieces(*part))
                return found
        # Words last, read one at a time rather than listed: there may be millions.
        words = segment.iter_words(self.ctx.source, start, end)
        first, second = next(words, None), next(words, None)
        if first is None or second is None:
            return self._cut_characters(start, end)
        found = Pieces()
        for word in itertools.chain((first, second), words):
            found.extend(self.pieces(*word))
        return found

    def _cut_characters(self, start: int, end: int) -> list[Piece]:
        # One "word" over budget (a long hash, a run of symbols): cut it where it still fits.
        found: list[Piece] = []
        while start < end:
            # Grow the probe until it overflows, so no count reads far more than one piece's
            # worth of text (the span may be megabytes long) ...
            cut = min(start + 4 * self.limit, end)
            while cut < end and self.ctx.budget_tokens(start, cut) <= self.limit:
                cut = min(start + 2 * (cut - start), end)
            # ... then cut where the measured density says the budget ends, a little early;
            # each round strictly shortens the probe, and one or two rounds usually do.
            while cut > start + 1 and (tokens := self.ctx.budget_tokens(start, cut)) > self.limit:
                shorter = (cut - start) * self.limit * 9 // (tokens * 10)
                cut = start + max(1, min(shorter, cut - start - 1))
            found.append(Piece(start, cut, self.ctx.budget_tokens(start, cut)))
            start = cut
        return found

    def fits(self, start: int, end: int) -> bool:
        """Say whether `prefix + source[start:end]` is within max_tokens by a real count, and
        within the characters that budget allows."""
        characters = len(self.prefix) + end - start
        return (
            characters <= self.ctx.max_tokens * MAX_CHARS_PER_TOKEN
            and self.ctx.total_tokens(self.prefix, start, end) <= self.ctx.max_tokens
        )

    def pack(
        self, pieces: Sequence[Piece], *, overlap: int, max_pieces: int | None = None
    ) -> list[RawChunk]:
        """Pack consecutive pieces up to the budget; each chunk repeats up to `overlap` tokens."""
        source = self.ctx.source
        gaps = [0] * len(pieces)
        for j in range(1, len(pieces)):
            left, right = pieces[j - 1].end, pieces[j].start
            if source[left:right].strip():
                gaps[j] = self.ctx.budget_tokens(left, right)
        chunks: list[RawChunk] = []
        carry: Piece | None = None
        i = 0
        while i < len(pieces):
            if carry is not None and carry.tokens + gaps[i] + pieces[i].tokens > self.limit:
                carry = None
            start = carry.start if carry is not None else pieces[i].start
            used = (carry.tokens + gaps[i] if carry is not None else 0) + pieces[i].tokens
            j = i + 1
            while (
                j < len(pieces)
                and used + gaps[j] + pieces[j].tokens <= self.limit
                and (max_pieces is None or j - i < max_pieces)
            ):
                used += gaps[j] + pieces[j].tokens
                j += 1
            # The sum of parts is an estimate (exact for BERT across whitespace); the real
            # count of the joined text decides.
            while j - i > 1 and not self.fits(start, pieces[j - 1].end):
                j -= 1
            if carry is not None and not self.fits(start, pieces[j - 1].end):
                carry = None
                continue
            chunks.append(RawChunk(start, pieces[j - 1].end, self.prefix))
            carry = self._overlap(pieces, gaps, i, j, overlap)
            i = j
        return chunks

    def _overlap(
        self, pieces: Sequence[Piece], gaps: list[int], i: int, j: int, overlap: int
    ) -> Piece | None:
        if overlap <= 0:
            return None
        # Whole trailing pieces (sentences) first, never the whole chunk again.
        k, used = j, 0
        while k - 1 > i:
            cost = pieces[k - 1].tokens + (gaps[k] if k < j else 0)
            if used + cost > overlap:
                break
            used += cost
            k -= 1
        if k < j:
            return Piece(pieces[k].start, pieces[j - 1].end, used)
        # No whole piece is small enough: take trailing words of the last one.
        last = pieces[j - 1]
        spans = segment.words(self.ctx.source, last.start, last.end)
        best: Piece | None = None
        for word_start, _ in reversed(spans[1:]):
            tokens = self.ctx.budget_tokens(word_start, last.end)
            if tokens > overlap:
                break
            best = Piece(word_start, last.end, tokens)
        return best
