"""Token estimates for packing prompts when the generator's own tokenizer is not at hand."""

from __future__ import annotations

import math
import re

_WORD = re.compile(r"\S+")

# OpenAI's rule of thumb is about four characters of English per token; words count at least
# one token each, which keeps the estimate from undercounting short-word and non-Latin text.
CHARS_PER_TOKEN = 4.0


def estimate_tokens(text: str) -> int:
    """A conservative token count: max(characters / 4, words), rounded up."""
    if not text:
        return 0
    return max(math.ceil(len(text) / CHARS_PER_TOKEN), len(_WORD.findall(text)))
