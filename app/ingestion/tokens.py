"""Token counting for chunk budgets: a protocol, a real-tokenizer counter, and an estimate."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Protocol

from tokenizers import Tokenizer

# all-MiniLM-L6-v2 reads at most 256 tokens, [CLS] and [SEP] included.
DEFAULT_EMBEDDER_WINDOW = 256


class TokenCounter(Protocol):
    """Counts the tokens the embedding model sees for a text, special tokens included."""

    def count_tokens(self, text: str) -> int:
        """Return the token count of `text`."""
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
