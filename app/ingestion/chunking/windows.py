"""Flat strategies: character windows over the whole text, and CSV rows under their header."""

from __future__ import annotations

import bisect

from app.ingestion import segment
from app.ingestion.chunking.base import ChunkContext, RawChunk
from app.ingestion.chunking.packing import Packer, Piece
from app.ingestion.tree import ChildNode, SectionNode
from app.kit.errors import ValidationFailed

# The formats `csv_rows` chunks: CSV, and spreadsheets (one header per sheet).
ROW_FORMATS = frozenset({"csv", "xlsx", "ods"})


def _snap_end(text: str, start: int, end: int) -> int:
    """Move a window end back to whitespace in its second half, so words stay whole."""
    if end >= len(text) or text[end].isspace():
        return end
    for position in range(end - 1, start + (end - start) // 2, -1):
        if text[position].isspace():
            return position
    return end


def _within_tokens(ctx: ChunkContext, packer: Packer, start: int, end: int) -> int:
    """Shorten `[start, end)` to whole words within max_tokens (near the longest such run)."""
    while not packer.fits(start, end):
        # Cut where the measured token density says the budget runs out, a little early so
        # one or two counts usually settle it; each round strictly shortens the window.
        tokens = ctx.total_tokens("", start, end)
        target = start + (end - start) * ctx.max_tokens * 9 // (tokens * 10)
        ends = [word_end for _, word_end in segment.words(ctx.source, start, end)]
        if len(ends) < 2:
            return packer.pieces(start, end)[0].end  # one word over budget: cut it
        index = max(bisect.bisect_right(ends, target) - 1, 0)
        end = min(ends[index], ends[-2])
    return end


def chunk_sliding_window(ctx: ChunkContext) -> list[RawChunk]:
    """Windows of `window_chars` with `overlap_chars` overlap, snapped to whitespace."""
    text, size = ctx.source, ctx.config.window_chars
    packer = Packer(ctx)
    chunks: list[RawChunk] = []
    position = 0
    while position < len(text):
        window_end = min(position + size, len(text))
        span = segment.trim(text, position, _snap_end(text, position, window_end))
        if span is None:
            position += size
            continue
        start, end = span
        end = _within_tokens(ctx, packer, start, end)
        chunks.append(RawChunk(start, end))
        if segment.trim(text, end, len(text)) is None:
            break
        # Step back by the overlap, but never by more than half the window (progress).
        position = max(end - ctx.config.overlap_chars, start + (end - start + 1) // 2)
        while position < end and not text[position - 1].isspace():
            position += 1  # start the next window on a word boundary
    return chunks


def chunk_csv_rows(ctx: ChunkContext) -> list[RawChunk]:
    """Rows packed up to max_tokens (and `rows_per_chunk`), the header line on top of each;
    a spreadsheet's sheets one after another, each under its own header."""
    parsed = ctx.parsed
    if parsed.csv_header is not None and parsed.root.children:
        tables = [list(parsed.root.children)]
    elif parsed.format in ROW_FORMATS:
        tables = [
            list(sheet.children)
            for sheet in parsed.root.children
            if isinstance(sheet, SectionNode) and sheet.children
        ]
    else:
        raise ValidationFailed("the csv_rows strategy needs a CSV document or a spreadsheet")
    return [chunk for rows in tables for chunk in _table_rows(ctx, rows)]


def _table_rows(ctx: ChunkContext, rows: list[ChildNode]) -> list[RawChunk]:
    header, data = rows[0], rows[1:]
    if not data:
        return [RawChunk(header.range.start_offset, header.range.end_offset)]
    packer = Packer(ctx, prefix=header.text + "\n")
    # Rows are never cut: a row over the budget becomes a chunk of its own.
    pieces = [
        Piece(
            row.range.start_offset,
            row.range.end_offset,
            ctx.content_tokens(row.range.start_offset, row.range.end_offset),
        )
        for row in data
    ]
    return packer.pack(pieces, overlap=0, max_pieces=ctx.config.rows_per_chunk)
