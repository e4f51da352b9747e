"""The recursive and markdown strategies: sizes, separators, overlap, headings first."""

from __future__ import annotations

import itertools

import pytest
from pydantic import ValidationError

from app.ingestion import ChunkDraft, ChunkingConfig, EstimatingCounter, chunk_document
from app.ingestion import parse_document as parse

SENTENCE = "The quick brown fox jumps over the lazy dog near the river bank."


def _chunks(text: str, fmt: str = "text", **settings: object) -> list[ChunkDraft]:
    parsed = parse(text.encode(), format=fmt)
    return chunk_document(
        parsed, ChunkingConfig.model_validate(settings), EstimatingCounter(), embedder_window=8192
    )


def _contiguous(text: str, chunks: list[ChunkDraft]) -> None:
    for chunk in chunks:
        assert chunk.text == text[chunk.start_offset : chunk.end_offset]


def test_recursive_packs_paragraphs_up_to_max_chars() -> None:
    paragraphs = [" ".join([SENTENCE] * 2) for _ in range(6)]  # 129 characters each
    text = "\n\n".join(paragraphs)
    chunks = _chunks(text, strategy="recursive", max_chars=300, overlap_chars=0)
    _contiguous(text, chunks)
    assert all(len(c.text) <= 300 for c in chunks)
    # Two whole paragraphs fit in 300 characters, three do not.
    assert [c.text.count("\n\n") for c in chunks] == [1, 1, 1]


def test_recursive_defaults_512_and_50_overlap() -> None:
    text = " ".join(f"Short line {n:03}." for n in range(150))  # one paragraph, 2,399 chars
    chunks = _chunks(text, strategy="recursive")
    _contiguous(text, chunks)
    assert all(len(c.text) <= 512 for c in chunks)
    assert len(chunks) == 6
    for previous, chunk in itertools.pairwise(chunks):
        # Cut at sentences; the next chunk repeats the last sentences, within 50 characters.
        assert previous.text.endswith(".")
        assert chunk.text.startswith("Short")
        assert 30 <= previous.end_offset - chunk.start_offset <= 50


def test_recursive_custom_separators_and_word_cut() -> None:
    text = "alpha;beta;gamma;delta"
    chunks = _chunks(text, strategy="recursive", max_chars=16, separators=[";"], overlap_chars=0)
    assert [c.text for c in chunks] == ["alpha;beta;gamma", "delta"]  # 16 characters fit
    long_word = "x" * 40
    cut = _chunks(long_word, strategy="recursive", max_chars=16, overlap_chars=0)
    assert [len(c.text) for c in cut] == [16, 16, 8]


def test_markdown_cuts_at_headings_first() -> None:
    text = "# Title\n\nIntro.\n\n## One\n\nFirst part.\n\n## Two\n\nSecond part."
    chunks = _chunks(text, "markdown", strategy="markdown")
    _contiguous(text, chunks)
    assert [c.text for c in chunks] == [
        "# Title\n\nIntro.",
        "## One\n\nFirst part.",
        "## Two\n\nSecond part.",
    ]
    assert [c.section_titles for c in chunks] == [["Title"], ["Title", "One"], ["Title", "Two"]]


def test_overlap_must_be_below_max_chars() -> None:
    with pytest.raises(ValidationError, match="max_chars"):
        ChunkingConfig(strategy="recursive", max_chars=100, overlap_chars=100)
    with pytest.raises(ValidationError):
        ChunkingConfig(strategy="recursive", separators=[])
