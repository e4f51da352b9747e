"""Split text into trimmed spans: blank-line blocks, sentences, lines and words.

Every function takes the whole source and a `[start, end)` window and returns `(start, end)`
spans into the same source, trimmed of whitespace, ordered and disjoint, that together hold
every non-whitespace character of the window.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

Span = tuple[int, int]

_BLANK_LINES = re.compile(r"\n(?:[^\S\n]*\n)+")
_LINE_BREAK = re.compile(r"\n")
_WORD = re.compile(r"\S+")
_NEXT_VISIBLE = re.compile(r"\s*(\S)")
# Terminal punctuation, then closing quotes or brackets; Latin marks need whitespace after them
# (so "3.14" and "a.b" never split), CJK full stops do not.
_TERMINAL = re.compile(r"[.!?\u2026]+[\"'\u201d\u2019)\]\u00bb]*(?=\s)|[\u3002\uff01\uff1f]+")
# A line that starts a list item also starts a sentence, even without punctuation before it.
_LIST_ITEM = re.compile(r"\n(?=[^\S\n]*(?:[-*+\u2022]|\d{1,3}[.)])[^\S\n])")
_ABBREVIATIONS = frozenset(
    {
        "e.g.", "i.e.", "cf.", "vs.", "viz.", "al.", "approx.", "ca.", "dr.", "mr.", "mrs.",
        "ms.", "prof.", "sr.", "jr.", "st.", "mt.", "no.", "nos.", "fig.", "figs.", "eq.",
        "vol.", "pp.", "p.", "ed.", "eds.", "inc.", "ltd.", "co.", "corp.", "dept.", "u.s.",
        "u.k.", "jan.", "feb.", "mar.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.",
        "oct.", "nov.", "dec.", "gen.", "gov.", "sen.", "rep.", "rev.", "ph.d.", "a.m.", "p.m.",
    }
)  # fmt: skip


def trim(text: str, start: int, end: int) -> Span | None:
    """Return `[start, end)` without surrounding whitespace, or None when nothing is left."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def _between(text: str, cuts: list[int], start: int, end: int) -> list[Span]:
    spans: list[Span] = []
    bounds = [start, *cuts, end]
    for left, right in itertools.pairwise(bounds):
        span = trim(text, left, right)
        if span is not None:
            spans.append(span)
    return spans


def blocks(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Split on blank lines (lines holding only whitespace)."""
    stop = len(text) if end is None else end
    cuts: list[int] = []
    for match in _BLANK_LINES.finditer(text, start, stop):
        cuts.extend((match.start(), match.end()))
    return _between(text, cuts, start, stop)


def lines(text: str, start: int, end: int) -> list[Span]:
    """Split on line breaks, dropping blank lines."""
    return _between(text, [m.start() for m in _LINE_BREAK.finditer(text, start, end)], start, end)


def words(text: str, start: int, end: int) -> list[Span]:
    """Return the runs of non-whitespace characters."""
    return list(iter_words(text, start, end))


def iter_words(text: str, start: int, end: int) -> Iterator[Span]:
    """The runs of non-whitespace characters, one at a time."""
    return (m.span() for m in _WORD.finditer(text, start, end))


def _is_boundary(text: str, match: re.Match[str], end: int) -> bool:
    visible = _NEXT_VISIBLE.match(text, match.end(), end)
    if visible is None or visible.group(1).islower():
        # Nothing follows, or a lower-case word does: "e.g. this", "Yahoo! is".
        return False
    mark = match.group()
    if not mark.startswith(".") or mark.startswith(".."):
        return True
    token_start = match.start()
    while token_start > 0 and not text[token_start - 1].isspace():
        token_start -= 1
    token = text[token_start : match.start()].lstrip("([{\"'\u201c\u2018").lower()
    if token + "." in _ABBREVIATIONS:
        return False
    if len(token) == 1 and token.isalpha():
        return False  # an initial: "J. Smith"
    at_line_start = token_start == 0 or text[token_start - 1] == "\n"
    return not (token.isdigit() and len(token) <= 3 and at_line_start)  # "1. First item"


def sentences(text: str, start: int, end: int) -> list[Span]:
    """Split a paragraph into sentences with a small rule set (abbreviations, initials, lists)."""
    cuts = [m.end() for m in _TERMINAL.finditer(text, start, end) if _is_boundary(text, m, end)]
    cuts.extend(m.start() for m in _LIST_ITEM.finditer(text, start, end))
    return _between(text, sorted(set(cuts)), start, end)
