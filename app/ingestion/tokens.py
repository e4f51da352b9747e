"""Token counting for chunk budgets: a protocol, a real-tokenizer counter, and an estimate."""

from __future__ import annotations

import math
import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from tokenizers import Encoding, Tokenizer

# all-MiniLM-L6-v2 reads at most 256 tokens, [CLS] and [SEP] included.
DEFAULT_EMBEDDER_WINDOW = 256


class TokenCounter(Protocol):
    """Counts the tokens the embedding model sees for a text, special tokens included."""

    def count_tokens(self, text: str) -> int:
        """Return the token count of `text`."""
        ...


# Tokenized this many characters at a time (cut at whitespace, which no word spans): one
# encoding of a whole 10 MB text held every token's id, string, offsets and masks at once,
# and the Python lists made from it, about 1.5 GB.
WINDOW_CHARS = 65_536
_SPACE = re.compile(r"\s")


def windows(text: str, size: int = WINDOW_CHARS) -> Iterator[tuple[int, int]]:
    """`[start, end)` spans that cover `text`, about `size` characters each, cut before a
    whitespace character (or at twice `size` where none comes: one word that long is one
    [UNK] token to WordPiece anyway)."""
    start = 0
    while start < len(text):
        end = start + size
        if end >= len(text):
            yield start, len(text)
            return
        found = _SPACE.search(text, end, end + size)
        end = found.start() if found is not None else end + size
        yield start, end
        start = end


@dataclass(frozen=True)
class TokenSpans:
    """Where a text's content tokens and words lie, in characters of the text.

    A WordPiece tokenizer splits a text into words (whitespace and punctuation) and each word
    into tokens on its own, so a span of the text that cuts no word holds exactly the tokens
    that lie in it: the chunker counts its many candidate spans from one tokenization instead
    of one per span (test: property-based against tokenizing the span itself). Offsets are
    kept in machine-integer arrays, 4 bytes each (8 only for a text past 2**31 characters,
    which no parse limit allows), a tenth of the memory of lists of Python ints.
    """

    token_starts: array[int]
    word_starts: array[int]
    word_ends: array[int]

    @classmethod
    def of_text(cls, encode: Callable[[str], Encoding], text: str) -> TokenSpans:
        """From `encode` (a tokenizer without special tokens) applied window by window."""
        code = "i" if len(text) < 2**31 else "q"
        spans = cls(array(code), array(code), array(code))
        for start, end in windows(text):
            spans._extend(encode(text[start:end]), start)
        return spans

    def _extend(self, encoding: Encoding, base: int) -> None:
        words: dict[int, list[int]] = {}
        for word, (start, end) in zip(encoding.word_ids, encoding.offsets, strict=True):
            if word is None:
                continue
            span = words.setdefault(word, [start, end])
            span[0], span[1] = min(span[0], start), max(span[1], end)
        ordered = sorted(words.values())
        self.token_starts.extend(base + start for start, _ in encoding.offsets)
        self.word_starts.extend(base + start for start, _ in ordered)
        self.word_ends.extend(base + end for _, end in ordered)

    def count(self, start: int, end: int) -> int | None:
        """Content tokens of text[start:end]; None when a boundary falls inside a word."""
        if self._inside_word(start) or self._inside_word(end):
            return None
        return bisect_left(self.token_starts, end) - bisect_left(self.token_starts, start)

    def _inside_word(self, position: int) -> bool:
        index = bisect_right(self.word_starts, position) - 1
        return index >= 0 and self.word_starts[index] < position < self.word_ends[index]


@runtime_checkable
class SpanningCounter(TokenCounter, Protocol):
    """A counter that can also map a whole text's tokens (see `TokenSpans`)."""

    def token_spans(self, text: str) -> TokenSpans:
        """Return where the content tokens and words of `text` lie."""
        ...


class TokenizerCounter:
    """Counts with a Hugging Face `tokenizers.Tokenizer`, without truncation or padding."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        # A private copy: the embedder's tokenizer truncates and pads, which would hide length.
        self._tokenizer = Tokenizer.from_str(tokenizer.to_str())
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()

    @classmethod
    def from_file(cls, path: str | Path) -> TokenizerCounter:
        """Load a `tokenizer.json`."""
        return cls(Tokenizer.from_file(str(path)))

    def count_tokens(self, text: str) -> int:
        """Return the number of ids the model gets, [CLS] and [SEP] included."""
        return len(self._tokenizer.encode(text, add_special_tokens=True).ids)

    def token_spans(self, text: str) -> TokenSpans:
        return TokenSpans.of_text(
            lambda part: self._tokenizer.encode(part, add_special_tokens=False), text
        )


_ESTIMATE_PIECE = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|\w+|[^\w\s]"
)


class EstimatingCounter:
    """A tokenizer-free estimate that errs high for WordPiece-style models; a fallback only."""

    def __init__(self, special_tokens: int = 2, chars_per_token: int = 4) -> None:
        self._special = special_tokens
        self._chars = chars_per_token

    def count_tokens(self, text: str) -> int:
        """Count CJK characters and punctuation as one token each, words by their length."""
        return self._special + sum(
            math.ceil(len(piece) / self._chars) for piece in _ESTIMATE_PIECE.findall(text)
        )
