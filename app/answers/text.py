"""Sentences and content words: what context packing and the extractive generator share."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable

# A sentence ends at . ! ? (or their CJK forms) before whitespace and a capital, digit, quote
# or bracket, or at a blank line; abbreviations like "e.g." and "Fig. 2" are glued back below.
_BOUNDARY = re.compile(
    "(?<=[.!?\u3002\uff01\uff1f])[\"'\u201d\u2019)\\]]*\\s+(?=[\"'\u201c\u2018(\\[A-Z0-9\u00c0-\u00dd])|\\n\\s*\\n"
)
_ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|etc|vs|cf|al|fig|figs|eq|no|dr|mr|mrs|ms|prof|st|approx|ca)\.|\b[A-Z]\.)$",
    re.IGNORECASE,
)
_WORD = re.compile(r"\w+", re.UNICODE)

_STOPWORD_TEXT = """a about above after again against all also am an and any are as at be
    because been
    before being below between both but by can could did do does doing down during each few
    for from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up very
    was we were what when where which while who whom why will with would you your yours
    yourself yourselves many much does tell show give explain describe please"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def split_sentences(text: str) -> list[str]:
    """Whole sentences of a passage, whitespace collapsed; a passage without end marks is one."""
    pieces = [p for p in _BOUNDARY.split(text) if p and p.strip()]
    sentences: list[str] = []
    for piece in pieces:
        cleaned = " ".join(piece.split())
        if sentences and _ABBREVIATION.search(sentences[-1]):
            sentences[-1] = f"{sentences[-1]} {cleaned}"
        else:
            sentences.append(cleaned)
    return sentences


def stem(word: str) -> str:
    """A light English suffix strip, enough to match "studies"/"study", "cells"/"cell"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word


def terms(text: str) -> list[str]:
    """Content words, case-folded and stemmed (stop words and one-letter words left out)."""
    return [
        stem(word)
        for word in (w.casefold() for w in _WORD.findall(text))
        if len(word) > 1 and word not in STOPWORDS
    ]


def idf_table(documents: Iterable[Iterable[str]]) -> dict[str, float]:
    """Smoothed inverse document frequency of each term over the given term lists."""
    frequency: Counter[str] = Counter()
    count = 0
    for document in documents:
        count += 1
        frequency.update(set(document))
    return {term: math.log(1.0 + count / df) for term, df in frequency.items()}


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    """Cosine of two sparse vectors."""
    if not a or not b:
        return 0.0
    if len(a) > len(b):
        a, b = b, a
    dot = sum(weight * b.get(term, 0.0) for term, weight in a.items())
    norm = math.sqrt(sum(w * w for w in a.values())) * math.sqrt(sum(w * w for w in b.values()))
    return dot / norm if norm else 0.0
