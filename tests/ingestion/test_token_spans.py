"""Counting a span's tokens from one tokenization of the whole text is exact where it is used."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.embeddings.local import WordPieceTokenizer
from app.ingestion import ChunkingConfig, chunk_document, parse_document
from app.ingestion.parsers import ParseLimits
from app.ingestion.tokens import WINDOW_CHARS, SpanningCounter, TokenCounter
from app.kit.errors import PayloadTooLarge
from tests.ingestion.test_ingestion_properties import (
    ALPHABET,
    COUNTER,
    PROPERTY_SETTINGS,
    documents,
)

MODEL_TOKENIZER = Path(__file__).resolve().parents[2] / "models/all-MiniLM-L6-v2/tokenizer.json"
# Whole words that the vocabulary holds as one token or splits in pieces, so that a cut inside
# one tokenizes differently from the tokens of the whole text.
WORDS = ["unbelievable", "tokenization", "otters", "mitochondrial", "supplementation", "é"]
TEXT = st.lists(st.one_of(ALPHABET, st.sampled_from([" ", "  ", "\n", "\u00ad", "\u0301", *WORDS])))


class PlainCounter:
    """The same counts without `token_spans`: every span tokenized on its own."""

    def __init__(self, counter: TokenCounter) -> None:
        self.counter = counter

    def count_tokens(self, text: str) -> int:
        return self.counter.count_tokens(text)


def test_both_real_tokenizers_map_spans() -> None:
    model = WordPieceTokenizer(MODEL_TOKENIZER, max_tokens=256)
    assert isinstance(COUNTER, SpanningCounter)
    assert isinstance(model, SpanningCounter)
    assert not isinstance(PlainCounter(COUNTER), SpanningCounter)
    spans = model.token_spans("Otters swim.")
    assert spans.count(0, 11) == model.count_tokens("Otters swim") - model.count_tokens("") == 3
    assert spans.count(7, 12) == 2  # "swim."
    assert COUNTER.token_spans("Otters swim.").count(0, 3) is None  # cuts "Otters"


@PROPERTY_SETTINGS
@given(TEXT.map("".join), st.data())
def test_a_span_that_cuts_no_word_counts_what_tokenizing_it_gives(
    text: str, data: st.DataObject
) -> None:
    spans = COUNTER.token_spans(text)
    overhead = COUNTER.count_tokens("")
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))

    counted = spans.count(start, end)

    if counted is not None:
        assert counted == COUNTER.count_tokens(text[start:end]) - overhead
    # Whole-text spans never cut a word: the fast path is really taken.
    assert spans.count(0, len(text)) == COUNTER.count_tokens(text) - overhead


@PROPERTY_SETTINGS
@given(documents(), st.sampled_from([24, 48, 96]), st.sampled_from([0, 8]))
def test_chunks_are_the_same_with_and_without_span_counting(
    text: str, max_tokens: int, overlap: int
) -> None:
    if not text.replace("\ufeff", "").strip():
        return
    parsed = parse_document(text.encode(), format="markdown")
    config = ChunkingConfig(max_tokens=max_tokens, overlap_tokens=overlap)

    fast = chunk_document(parsed, config, COUNTER, embedder_window=128)
    slow = chunk_document(parsed, config, PlainCounter(COUNTER), embedder_window=128)

    assert fast == slow


def test_a_text_longer_than_a_window_counts_as_one_tokenization() -> None:
    """Tokenized window by window (cut at whitespace), the spans are those of the whole."""
    model = WordPieceTokenizer(MODEL_TOKENIZER, max_tokens=256)
    words = ["unbelievable", "otters", "swim.", "mitochondrial\n\n", "é", "tokenization"]
    text = " ".join(words[i % len(words)] for i in range(3 * WINDOW_CHARS // 6))
    assert len(text) > 2 * WINDOW_CHARS
    spans = model.token_spans(text)
    overhead = model.count_tokens("")
    assert spans.count(0, len(text)) == model.count_tokens(text) - overhead
    for start, end in ((0, WINDOW_CHARS + 7), (WINDOW_CHARS - 5, 2 * WINDOW_CHARS + 1)):
        while text[start - 1 : start].strip() and start > 0:
            start -= 1  # a span that cuts no word
        while text[end : end + 1].strip():
            end += 1
        assert spans.count(start, end) == model.count_tokens(text[start:end]) - overhead


def test_huge_text_limits_name_the_memory_ceiling() -> None:
    limits = ParseLimits.within(64 * 1024 * 1024)
    text = ("The river floods. " * (limits.max_text_chars // 18 + 10)).encode()
    with pytest.raises(PayloadTooLarge, match="ARBOR_INGEST_MEMORY_MB"):
        parse_document(text, format="text", limits=limits)
