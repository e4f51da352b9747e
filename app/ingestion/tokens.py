"""Token counting for chunk budgets: a protocol, a real-tokenizer counter, and an estimate."""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
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


@dataclass(frozen=True)
class TokenSpans:
    """Where a text's content tokens and words lie, in characters of the text.

    A WordPiece tokenizer splits a text into words (whitespace and punctuation) and each word
    into tokens on its own, so a span of the text that cuts no word holds exactly the tokens
    that lie in it: the chunker counts its many candidate spans from one tokenization instead
    of one per span (test: property-based against tokenizing the span itself).
    """

    token_starts: list[int]
    word_starts: list[int]
    word_ends: list[int]

    @classmethod
    def of(cls, encoding: Encoding) -> TokenSpans:
        """From an encoding made without special tokens."""
        words: dict[int, list[int]] = {}
        for word, (start, end) in zip(encoding.word_ids, encoding.offsets, strict=True):
            if word is None:
                continue
            span = words.setdefault(word, [start, end])
            span[0], span[1] = min(span[0], start), max(span[1], end)
        ordered = sorted(words.values())
        return cls(
            token_starts=[start for start, _ in encoding.offsets],
            word_starts=[start for start, _ in ordered],
            word_ends=[end for _, end in ordered],
        )

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
        return TokenSpans.of(self._tokenizer.encode(text, add_special_tokens=False))


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
