"""Property tests: trees and chunks keep their range invariants on generated documents."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.ingestion import (
    ChunkDraft,
    ChunkingConfig,
    DocumentNode,
    ParsedDocument,
    SectionNode,
    TokenizerCounter,
    chunk_document,
    iter_nodes,
    leaves,
    parse_document,
)
from app.ingestion.tree import Node, children_of, containing_path
from app.kit.errors import PayloadTooLarge, UnprocessableDocument, UnsupportedMediaType

TOKENIZER = Path(__file__).parent / "data" / "tokenizer.json"
COUNTER = TokenizerCounter.from_file(TOKENIZER)
PROPERTY_SETTINGS = settings(
    max_examples=120,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# Letters, digits, sentence punctuation, emoji, combining marks, CJK, odd whitespace.
ALPHABET = st.sampled_from(
    [
        *"abcXYZ019.,!?;:'\"()-#`~|*",
        *["\u00e9", "e\u0301", "\U0001f600", "\U0001f469\u200d\U0001f4bb", "\u4e2d\u6587"],
        *["\u00a0", "\t", "\u00df", "\u0130", "\ufb01", "\u2028"],
    ]
)
WORD = st.lists(ALPHABET, min_size=1, max_size=8).map("".join)
LINE = st.lists(WORD, min_size=1, max_size=14).map(" ".join)
PARAGRAPH = st.lists(LINE, min_size=1, max_size=4).map("\n".join)
HEADING = st.builds(
    lambda indent, hashes, title: " " * indent + "#" * hashes + " " + title,
    st.integers(0, 4),
    st.integers(1, 7),
    LINE,
)
FENCE = st.builds(
    lambda mark, body, closed: "\n".join([mark, *body, *([mark] if closed else [])]),
    st.sampled_from(["```", "~~~", "````"]),
    st.lists(st.one_of(LINE, HEADING, st.just("")), max_size=4),
    st.booleans(),
)
BLOCK = st.one_of(PARAGRAPH, PARAGRAPH, HEADING, FENCE, st.just(""), st.just("   "))


@st.composite
def documents(draw: st.DrawFn) -> str:
    """Markdown-ish text: blocks joined by one or two line ends, LF or CRLF."""
    blocks = draw(st.lists(BLOCK, min_size=1, max_size=14))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    separators = draw(st.lists(st.sampled_from([1, 2, 3]), min_size=len(blocks)))
    text = "".join(block + newline * sep for block, sep in zip(blocks, separators, strict=False))
    return draw(st.sampled_from(["", " \n", "\ufeff"])) + text


def _parse(text: str, fmt: str) -> ParsedDocument | None:
    if not text.replace("\ufeff", "").strip():
        return None
    return parse_document(text.encode(), format=fmt)


def _check_tree(parsed: ParsedDocument) -> None:
    source = parsed.text
    root = parsed.root
    assert (root.range.start_offset, root.range.end_offset) == (0, len(source))
    for node in iter_nodes(root):
        start, end = node.range.start_offset, node.range.end_offset
        assert node.text == source[start:end]
        if node is not root:
            assert start < end
            assert node.text == node.text.strip()
        previous_end = start
        for child in children_of(node):
            assert start <= child.range.start_offset < child.range.end_offset <= end
            assert child.range.start_offset >= previous_end
            previous_end = child.range.end_offset
    ids = [node.node_id for node in iter_nodes(root)]
    assert len(ids) == len(set(ids))


def _heading_lines(root: DocumentNode) -> list[tuple[int, int]]:
    spans = []
    for node in iter_nodes(root):
        if isinstance(node, SectionNode):
            kids = children_of(node)
            end = kids[0].range.start_offset if kids else node.range.end_offset
            spans.append((node.range.start_offset, end))
    return spans


def _uncovered(source: str, spans: list[tuple[int, int]]) -> list[int]:
    covered = bytearray(len(source))
    for start, end in spans:
        covered[start:end] = b"\x01" * (end - start)
    return [i for i, ch in enumerate(source) if not ch.isspace() and not covered[i]]


@PROPERTY_SETTINGS
@given(text=documents(), fmt=st.sampled_from(["markdown", "text"]))
def test_tree_ranges_hold_and_ids_are_stable(text: str, fmt: str) -> None:
    parsed = _parse(text, fmt)
    if parsed is None:
        return
    assert parsed.text == text.removeprefix("\ufeff").replace("\r\n", "\n")
    _check_tree(parsed)
    again = _parse(text, fmt)
    assert again is not None
    assert again.root == parsed.root
    # Nothing visible is dropped: each character sits in a leaf or a heading line.
    spans = [(n.range.start_offset, n.range.end_offset) for n in leaves(parsed.root)]
    assert _uncovered(parsed.text, spans + _heading_lines(parsed.root)) == []


def _check_chunks(parsed: ParsedDocument, chunks: list[ChunkDraft], max_tokens: int) -> None:
    source = parsed.text
    assert [chunk.chunk_index for chunk in chunks] == list(range(len(chunks)))
    for chunk in chunks:
        assert chunk.text == source[chunk.start_offset : chunk.end_offset]
        assert chunk.text == chunk.text.strip()
        assert COUNTER.count_tokens(chunk.text) == chunk.token_count <= max_tokens
        path = containing_path(parsed.root, chunk.start_offset, chunk.end_offset)
        assert chunk.node_path == [node.node_id for node in path]
        assert chunk.leaf_node_id == chunk.node_path[-1]
        assert chunk.depth == len(chunk.node_path) - 1
        assert chunk.section_titles == [n.title for n in path if isinstance(n, SectionNode)]


def _leaf_spans(root: Node) -> list[tuple[int, int]]:
    return [(n.range.start_offset, n.range.end_offset) for n in leaves(root)]


@PROPERTY_SETTINGS
@given(
    text=documents(),
    fmt=st.sampled_from(["markdown", "text"]),
    max_tokens=st.integers(16, 80),
    overlap_ratio=st.floats(0, 0.45),
    min_tokens=st.integers(0, 16),
)
def test_hierarchical_chunks_are_slices_within_budget_and_lose_nothing(
    text: str, fmt: str, max_tokens: int, overlap_ratio: float, min_tokens: int
) -> None:
    parsed = _parse(text, fmt)
    if parsed is None:
        return
    config = ChunkingConfig(
        max_tokens=max_tokens,
        overlap_tokens=int(max_tokens * overlap_ratio),
        min_tokens=min_tokens,
    )
    chunks = chunk_document(parsed, config, COUNTER)
    _check_chunks(parsed, chunks, max_tokens)
    spans = [(c.start_offset, c.end_offset) for c in chunks]
    leaf_chars: set[int] = set()
    for start, end in _leaf_spans(parsed.root):
        leaf_chars.update(i for i in range(start, end) if not parsed.text[i].isspace())
    assert leaf_chars.isdisjoint(_uncovered(parsed.text, spans))
    # Chunks come in document order, and repeat no more than the overlap allows.
    for previous, current in itertools.pairwise(chunks):
        assert previous.start_offset < current.start_offset
        assert previous.end_offset < current.end_offset
        if current.start_offset < previous.end_offset:
            repeated = parsed.text[current.start_offset : previous.end_offset]
            assert COUNTER.count_tokens(repeated) - 2 <= config.overlap_tokens


@PROPERTY_SETTINGS
@given(
    text=documents(),
    window=st.integers(50, 400),
    overlap_ratio=st.floats(0, 0.9),
    max_tokens=st.integers(16, 128),
)
def test_sliding_windows_are_slices_within_budget_and_cover_the_text(
    text: str, window: int, overlap_ratio: float, max_tokens: int
) -> None:
    parsed = _parse(text, "markdown")
    if parsed is None:
        return
    config = ChunkingConfig(
        strategy="sliding_window",
        max_tokens=max_tokens,
        overlap_tokens=0,
        window_chars=window,
        overlap_chars=int(window * overlap_ratio),
    )
    chunks = chunk_document(parsed, config, COUNTER)
    _check_chunks(parsed, chunks, max_tokens)
    spans = [(c.start_offset, c.end_offset) for c in chunks]
    assert _uncovered(parsed.text, spans) == []


@pytest.mark.parametrize("fmt", ["markdown", "text"])
def test_generated_documents_include_hard_cases(fmt: str) -> None:
    """A fixed sample of the generator's hard cases, so a regression shows without luck."""
    text = "\ufeff # A\r\n\r\n```\r\n# x\r\n\r\ne\u0301 😀 中文. Next\u00a0one!\r\n\u2028\r\n## B"
    parsed = _parse(text, fmt)
    assert parsed is not None
    _check_tree(parsed)
    chunks = chunk_document(parsed, ChunkingConfig(max_tokens=16, overlap_tokens=4), COUNTER)
    _check_chunks(parsed, chunks, 16)


@PROPERTY_SETTINGS
@given(
    data=st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300).map(lambda s: s.encode("utf-8", "surrogatepass")),
        documents().map(str.encode),
        st.lists(
            st.sampled_from(
                [
                    "<p>",
                    "</p>",
                    "<h2>",
                    "</h2>",
                    "<li>",
                    "<br>",
                    "<tr>",
                    "<td>",
                    "<script>",
                    "</script>",
                    "x y.",
                    ",",
                    '"',
                    "\n",
                ]
            ),
            max_size=40,
        ).map(lambda parts: "".join(parts).encode()),
    ),
    fmt=st.sampled_from([None, "markdown", "text", "csv", "html", "pdf", "docx"]),
)
def test_any_input_gives_a_valid_tree_or_an_app_error(data: bytes, fmt: str | None) -> None:
    try:
        parsed = parse_document(data, format=fmt)
    except (UnprocessableDocument, UnsupportedMediaType, PayloadTooLarge):
        return  # refused with a client error; anything else escapes and fails the test
    _check_tree(parsed)
