"""Chunking strategies: sections, tiny merges, overlap, long leaves, windows, CSV rows."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from pydantic import ValidationError
from tokenizers import Tokenizer

from app.ingestion import (
    ChunkDraft,
    ChunkingConfig,
    EstimatingCounter,
    ParsedDocument,
    TokenizerCounter,
    chunk_document,
    find_node,
    parse_document,
)
from app.ingestion.chunking.base import MAX_CHARS_PER_TOKEN
from app.ingestion.tree import SectionNode, iter_nodes
from app.kit.errors import ValidationFailed

TOKENIZER = Path(__file__).parent / "data" / "tokenizer.json"
COUNTER = TokenizerCounter.from_file(TOKENIZER)
SENTENCE = "The quick brown fox jumps over the lazy dog near the river bank."


def _md(text: str) -> ParsedDocument:
    return parse_document(text.encode(), format="markdown")


def _chunks(parsed: ParsedDocument, **settings: object) -> list[ChunkDraft]:
    return chunk_document(parsed, ChunkingConfig.model_validate(settings), COUNTER)


def _section(parsed: ParsedDocument, title: str) -> SectionNode:
    return next(
        n for n in iter_nodes(parsed.root) if isinstance(n, SectionNode) and n.title == title
    )


def _inside(chunk: ChunkDraft, node: SectionNode) -> bool:
    return node.range.start_offset <= chunk.start_offset < chunk.end_offset <= node.range.end_offset


def test_token_counter_counts_special_tokens_and_ignores_file_truncation() -> None:
    assert COUNTER.count_tokens("") == 2
    assert COUNTER.count_tokens("hello world") == 4
    long_text = " ".join(["word"] * 400)
    # tokenizer.json truncates at 128 for the model; counting must see every token.
    assert COUNTER.count_tokens(long_text) == 402
    original = Tokenizer.from_file(str(TOKENIZER))
    TokenizerCounter(original)
    assert len(original.encode(long_text).ids) == 128  # the caller's tokenizer is untouched


def test_estimating_counter_errs_high_on_english() -> None:
    text = " ".join([SENTENCE] * 20)
    assert EstimatingCounter().count_tokens(text) >= COUNTER.count_tokens(text)
    assert EstimatingCounter().count_tokens("") == 2


def test_sections_are_never_joined() -> None:
    body = " ".join([SENTENCE] * 3)
    parsed = _md(f"# One\n\n{body}\n\n# Two\n\n{body}\n")
    chunks = _chunks(parsed, max_tokens=256, min_tokens=8)
    one, two = _section(parsed, "One"), _section(parsed, "Two")
    assert len(chunks) == 2
    assert _inside(chunks[0], one)
    assert _inside(chunks[1], two)
    assert chunks[0].section_titles == ["One"]
    assert chunks[1].node_path[:2] == [parsed.root.node_id, two.node_id]


def test_tiny_section_merges_with_next_sibling_and_lineage_names_the_parent() -> None:
    body = " ".join([SENTENCE] * 3)
    parsed = _md(f"# Guide\n\n## Tiny\n\nShort.\n\n## Big\n\n{body}\n\n# Other\n\n{body}\n")
    chunks = _chunks(parsed, max_tokens=256, min_tokens=16)
    guide = _section(parsed, "Guide")
    assert chunks[0].text.startswith("Short.")
    assert chunks[0].text.endswith(body)
    assert "## Big" in chunks[0].text
    assert chunks[0].leaf_node_id == guide.node_id
    assert chunks[0].section_titles == ["Guide"]
    # The merge stops at the parent's edge: "Other" is not Big's sibling.
    assert _inside(chunks[1], _section(parsed, "Other"))
    assert len(chunks) == 2


def test_no_merge_when_min_tokens_is_zero() -> None:
    parsed = _md("# A\n\nShort.\n\n# B\n\nAlso short.\n")
    chunks = _chunks(parsed, max_tokens=64, min_tokens=0)
    assert [c.text for c in chunks] == ["Short.", "Also short."]
    assert [c.section_titles for c in chunks] == [["A"], ["B"]]


def test_heading_without_content_is_kept_and_merged_forward() -> None:
    parsed = _md("# Empty\n\n# Full\n\n" + " ".join([SENTENCE] * 3))
    chunks = _chunks(parsed, max_tokens=256, min_tokens=8)
    assert chunks[0].text.startswith("# Empty")
    assert chunks[0].depth == 0


def test_long_paragraph_packs_whole_sentences_with_sentence_overlap() -> None:
    sentences = [f"Sentence number {n} talks about topic {n}." for n in range(30)]
    parsed = _md(" ".join(sentences))
    chunks = _chunks(parsed, max_tokens=48, overlap_tokens=12)
    assert len(chunks) > 3
    for chunk in chunks:
        assert chunk.token_count <= 48
        assert chunk.text.startswith("Sentence number")
        assert chunk.text.endswith(".")
    for previous, current in itertools.pairwise(chunks):
        last_sentence = previous.text.rsplit("Sentence", 1)[-1]
        assert current.text.startswith("Sentence" + last_sentence)  # one sentence repeated
        assert current.start_offset < previous.end_offset


def test_overlap_zero_gives_disjoint_chunks() -> None:
    parsed = _md(" ".join(f"Fact {n} is true." for n in range(60)))
    chunks = _chunks(parsed, max_tokens=40, overlap_tokens=0)
    for previous, current in itertools.pairwise(chunks):
        assert previous.end_offset <= current.start_offset


def test_sentence_longer_than_budget_is_split_by_words() -> None:
    words = " ".join(f"w{n}" for n in range(300))
    parsed = _md(f"# Long\n\n{words}")
    chunks = _chunks(parsed, max_tokens=32, overlap_tokens=0)
    assert len(chunks) > 5
    assert all(c.token_count <= 32 for c in chunks)
    assert " ".join(c.text for c in chunks) == words


def test_unbroken_string_longer_than_budget_is_cut_by_characters() -> None:
    blob = "ab-" * 400
    parsed = _md(f"Intro.\n\n{blob}")
    chunks = _chunks(parsed, max_tokens=32, overlap_tokens=0)
    assert all(c.token_count <= 32 for c in chunks)
    assert len(chunks) > 10
    assert "".join(c.text for c in chunks) == parsed.text  # adjacent cuts, nothing lost


@pytest.mark.parametrize(
    "blob",
    ["a" * 50_000, "\U0001f468\u200d\U0001f469\u200d\U0001f467" * 3000],
    ids=["letters", "joined emoji"],
)
def test_text_the_tokenizer_folds_into_few_tokens_still_makes_bounded_chunks(blob: str) -> None:
    # A "word" over 100 characters is one [UNK]: without a character bound, one chunk.
    parsed = _md(f"# X\n\n{blob}")
    chunks = _chunks(parsed, max_tokens=256, overlap_tokens=0)
    assert MAX_CHARS_PER_TOKEN == 10  # the bound documented in docs/ingestion.md
    assert max(len(c.text) for c in chunks) <= 2560
    assert len(chunks) >= len(blob) // 2560
    assert all(c.token_count <= 256 for c in chunks)
    assert "".join(c.text for c in chunks) == blob  # adjacent cuts, nothing lost


def test_code_block_over_budget_is_split_by_lines() -> None:
    code = "\n".join(f"print({n})" for n in range(80))
    parsed = _md(f"```\n{code}\n```")
    chunks = _chunks(parsed, max_tokens=40, overlap_tokens=0)
    assert len(chunks) > 2
    assert all(c.token_count <= 40 for c in chunks)
    assert all(c.text.endswith(")") or c.text.endswith("```") for c in chunks)


def test_include_headings_prefixes_the_heading_path() -> None:
    parsed = _md("# Guide\n\n## Install\n\nRun the installer now.\n")
    chunk = _chunks(parsed, max_tokens=64, include_headings=True, min_tokens=0)[0]
    assert chunk.prefix == "Guide > Install\n\n"
    assert chunk.text == chunk.prefix + "Run the installer now."
    assert parsed.text[chunk.start_offset : chunk.end_offset] == "Run the installer now."
    assert chunk.token_count == COUNTER.count_tokens(chunk.text)


def test_default_budget_is_the_embedder_window() -> None:
    parsed = _md(" ".join([SENTENCE] * 200))
    chunks = chunk_document(parsed, ChunkingConfig(), COUNTER)
    assert max(c.token_count for c in chunks) <= 256
    assert max(c.token_count for c in chunks) > 200


def test_config_validation() -> None:
    with pytest.raises(ValidationError):
        ChunkingConfig(max_tokens=32, overlap_tokens=32)
    with pytest.raises(ValidationError):
        ChunkingConfig(window_chars=100, overlap_chars=100)
    with pytest.raises(ValidationError):
        ChunkingConfig.model_validate({"strategy": "semantic"})
    parsed = _md("text")
    with pytest.raises(ValidationFailed, match="exceeds the embedder"):
        chunk_document(parsed, ChunkingConfig(max_tokens=512), COUNTER)
    with pytest.raises(ValidationFailed, match="overlap_tokens"):
        chunk_document(parsed, ChunkingConfig(overlap_tokens=300), COUNTER)


def test_sliding_window_snaps_to_whitespace_and_overlaps() -> None:
    parsed = _md("# Head\n\n" + " ".join(f"token{n}" for n in range(2000)))
    chunks = _chunks(
        parsed, strategy="sliding_window", window_chars=300, overlap_chars=50, max_tokens=256
    )
    assert len(chunks) > 10
    for chunk in chunks:
        assert chunk.text == parsed.text[chunk.start_offset : chunk.end_offset]
        assert len(chunk.text) <= 300
        assert chunk.text.split()[-1].startswith("token") or chunk.text.endswith("Head")
    for previous, current in itertools.pairwise(chunks[1:]):
        assert 0 < previous.end_offset - current.start_offset <= 50
        assert parsed.text[current.start_offset - 1].isspace()
    body_chunk = chunks[3]
    assert body_chunk.section_titles == ["Head"]
    assert find_node(parsed.root, body_chunk.leaf_node_id) is not None


def test_sliding_window_respects_max_tokens() -> None:
    parsed = _md(" ".join(f"x{n}y" for n in range(1000)))
    chunks = _chunks(parsed, strategy="sliding_window", window_chars=2000, max_tokens=64)
    assert all(c.token_count <= 64 for c in chunks)
    assert all(len(c.text) < 2000 for c in chunks)


CSV = "id,name,notes\n" + "".join(f'{n},Name {n},"Note {n}, with comma"\n' for n in range(40))


def test_csv_rows_repeat_the_header_and_never_split_rows() -> None:
    parsed = parse_document(CSV.encode(), filename="people.csv")
    assert parsed.csv_header == ["id", "name", "notes"]
    chunks = _chunks(parsed, strategy="csv_rows", max_tokens=64, overlap_tokens=0)
    assert len(chunks) > 3
    rows: list[str] = []
    for chunk in chunks:
        assert chunk.prefix == "id | name | notes\n"
        assert chunk.text == chunk.prefix + parsed.text[chunk.start_offset : chunk.end_offset]
        assert chunk.token_count <= 64
        body = chunk.text.split("\n")[1:]
        assert all(line.count(" | ") == 2 for line in body)
        rows.extend(body)
    assert rows == [f"{n} | Name {n} | Note {n}, with comma" for n in range(40)]


def test_csv_rows_per_chunk_caps_rows() -> None:
    parsed = parse_document(CSV.encode(), filename="people.csv")
    chunks = _chunks(parsed, strategy="csv_rows", rows_per_chunk=7)
    assert [c.text.count("\n") for c in chunks] == [7] * 5 + [5]


def test_csv_row_over_budget_stays_whole() -> None:
    wide = "a,b\n1," + " ".join(["long"] * 100) + "\n2,short\n"
    parsed = parse_document(wide.encode(), format="csv")
    chunks = _chunks(parsed, strategy="csv_rows", max_tokens=32, overlap_tokens=0)
    assert len(chunks) == 2
    assert chunks[0].text.endswith("long")
    assert chunks[1].text == "a | b\n2 | short"


def test_csv_rows_needs_a_csv_document() -> None:
    with pytest.raises(ValidationFailed, match="CSV"):
        _chunks(_md("# Not a table"), strategy="csv_rows")
