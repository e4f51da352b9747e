"""Markdown and plain-text trees, sentence splitting, and the tree helpers."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.ingestion import (
    DocumentNode,
    NodeKind,
    ParagraphNode,
    ParsedDocument,
    SectionNode,
    ancestors,
    find_node,
    iter_nodes,
    leaves,
    parse_document,
)
from app.ingestion.segment import sentences
from app.ingestion.tree import (
    Node,
    NodeRange,
    SentenceNode,
    node_path,
)

MARKDOWN = """Preface before any heading.

# Guide

Guide intro.

## Install

Run it. Then stop.

### Linux

Use apt.

## Usage

```sh
# a comment, not a heading

echo done
```

# Appendix
~~~
## still code
~~~
Last words.
"""


def _sections(root: Node) -> list[SectionNode]:
    return [node for node in iter_nodes(root) if isinstance(node, SectionNode)]


def _titles(node: Node) -> list[str]:
    return [
        child.title for child in getattr(node, "children", []) if isinstance(child, SectionNode)
    ]


def _check_ranges(text: str, root: DocumentNode) -> None:
    for node in iter_nodes(root):
        assert node.text == text[node.range.start_offset : node.range.end_offset]


def test_markdown_headings_nest_by_level_and_pop_back() -> None:
    parsed = parse_document(MARKDOWN.encode(), format="markdown")
    root = parsed.root
    assert parsed.format == "markdown"
    assert _titles(root) == ["Guide", "Appendix"]
    guide = root.children[1]
    assert isinstance(guide, SectionNode)
    assert guide.level == 1
    assert _titles(guide) == ["Install", "Usage"]
    install = guide.children[1]
    assert isinstance(install, SectionNode)
    assert _titles(install) == ["Linux"]
    assert [s.title for s in _sections(root)] == [
        "Guide",
        "Install",
        "Linux",
        "Usage",
        "Appendix",
    ]
    _check_ranges(parsed.text, root)


def test_text_before_the_first_heading_hangs_under_the_root() -> None:
    root = parse_document(MARKDOWN.encode(), format="markdown").root
    first = root.children[0]
    assert isinstance(first, ParagraphNode)
    assert first.text == "Preface before any heading."


def test_fenced_code_is_never_a_heading_and_stays_one_paragraph() -> None:
    parsed = parse_document(MARKDOWN.encode(), format="markdown")
    titles = [s.title for s in _sections(parsed.root)]
    assert "a comment, not a heading" not in titles
    assert "still code" not in titles
    usage = next(s for s in _sections(parsed.root) if s.title == "Usage")
    assert len(usage.children) == 1
    code = usage.children[0]
    assert isinstance(code, ParagraphNode)
    assert code.children == []
    assert code.text == "```sh\n# a comment, not a heading\n\necho done\n```"
    appendix = next(s for s in _sections(parsed.root) if s.title == "Appendix")
    assert [c.text for c in appendix.children] == ["~~~\n## still code\n~~~", "Last words."]


def test_section_range_runs_from_header_to_last_content() -> None:
    parsed = parse_document(MARKDOWN.encode(), format="markdown")
    install = next(s for s in _sections(parsed.root) if s.title == "Install")
    assert install.text.startswith("## Install")
    assert install.text.endswith("Use apt.")
    assert parsed.root.range.start_offset == 0
    assert parsed.root.range.end_offset == len(parsed.text)


def test_unclosed_fence_runs_to_the_end_and_hashtags_are_not_headings() -> None:
    text = "#hashtag is text\n\n####### seven is text\n\n```\n# inside\n\nmore"
    parsed = parse_document(text.encode(), format="markdown")
    assert _sections(parsed.root) == []
    assert [c.text for c in parsed.root.children] == [
        "#hashtag is text",
        "####### seven is text",
        "```\n# inside\n\nmore",
    ]


def test_closing_hashes_are_not_part_of_the_title() -> None:
    parsed = parse_document(b"## Title ##\n\nbody\n", format="markdown")
    assert _sections(parsed.root)[0].title == "Title"
    assert _sections(parsed.root)[0].level == 2


def test_plain_text_paragraphs_split_on_blank_lines_only() -> None:
    text = "First line\nsame paragraph.\n \t\nSecond paragraph.\r\n\r\nThird. With two."
    parsed = parse_document(text.encode(), format="text")
    assert parsed.format == "text"
    assert [c.text for c in parsed.root.children] == [
        "First line\nsame paragraph.",
        "Second paragraph.",
        "Third. With two.",
    ]
    third = parsed.root.children[2]
    assert isinstance(third, ParagraphNode)
    assert [s.text for s in third.children] == ["Third.", "With two."]
    _check_ranges(parsed.text, parsed.root)


def test_plain_text_headings_are_not_sections() -> None:
    parsed = parse_document(b"# not a heading in text\n\nbody", format="text")
    assert _sections(parsed.root) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]),
        ("Use e.g. apples here. Then stop.", ["Use e.g. apples here.", "Then stop."]),
        ("Dr. Who met Mr. Smith. Fine.", ["Dr. Who met Mr. Smith.", "Fine."]),
        ("Use e.g. Python. See Fig. 3 now.", ["Use e.g. Python.", "See Fig. 3 now."]),
        ("Pi is 3.14 exactly. Next.", ["Pi is 3.14 exactly.", "Next."]),
        ("J. R. R. Tolkien wrote. Yes.", ["J. R. R. Tolkien wrote.", "Yes."]),
        ('He said "Stop." Then left.', ['He said "Stop."', "Then left."]),
        ("Yahoo! is a name. End.", ["Yahoo! is a name.", "End."]),
        ("Items:\n- one\n- two", ["Items:", "- one", "- two"]),
        ("1. first\n2. second", ["1. first", "2. second"]),
        ("第一句。第二句\uff01", ["第一句。", "第二句\uff01"]),
        ("Wait... What? ok", ["Wait...", "What? ok"]),
    ],
)
def test_sentence_splitter(text: str, expected: list[str]) -> None:
    assert [text[s:e] for s, e in sentences(text, 0, len(text))] == expected


def test_single_sentence_paragraph_has_no_sentence_children() -> None:
    parsed = parse_document(b"Only one sentence here.", format="text")
    paragraph = parsed.root.children[0]
    assert isinstance(paragraph, ParagraphNode)
    assert paragraph.children == []


def test_helpers_find_ancestors_and_leaves() -> None:
    parsed = parse_document(MARKDOWN.encode(), format="markdown")
    root = parsed.root
    linux = next(s for s in _sections(root) if s.title == "Linux")
    assert find_node(root, linux.node_id) is linux
    assert find_node(root, "missing") is None
    assert [getattr(n, "title", None) for n in ancestors(root, linux.node_id)] == [
        parsed.title,
        "Guide",
        "Install",
    ]
    assert ancestors(root, root.node_id) == []
    assert node_path(root, linux.node_id)[-1] is linux
    with pytest.raises(KeyError):
        ancestors(root, "missing")
    found = leaves(root)
    assert all(not getattr(n, "children", []) for n in found)
    assert [n.kind for n in found].count(NodeKind.SENTENCE) == 2  # "Run it." "Then stop."
    starts = [n.range.start_offset for n in found]
    assert starts == sorted(starts)


def test_ids_are_stable_unique_and_depend_on_content() -> None:
    first = parse_document(MARKDOWN.encode(), format="markdown").root
    again = parse_document(MARKDOWN.encode(), format="markdown").root
    other = parse_document((MARKDOWN + "\nMore.").encode(), format="markdown").root
    ids = [n.node_id for n in iter_nodes(first)]
    assert ids == [n.node_id for n in iter_nodes(again)]
    assert len(set(ids)) == len(ids)
    assert first.node_id != other.node_id


def test_tree_round_trips_through_json() -> None:
    root = parse_document(MARKDOWN.encode(), format="markdown").root
    dumped = root.model_dump(mode="json")
    assert dumped["kind"] == "document"
    assert dumped["children"][1]["kind"] == "section"
    assert DocumentNode.model_validate(dumped) == root
    assert DocumentNode.model_validate_json(root.model_dump_json()) == root


@pytest.mark.parametrize(
    ("given", "error"),
    [
        ({"start_offset": 3, "end_offset": 1}, "value_error"),
        ({"start_offset": -1, "end_offset": 1}, "greater_than_equal"),
        ({"start_offset": 0, "end_offset": 1, "length": 1}, "unexpected_keyword_argument"),
        ({"start_offset": 0}, "missing"),
    ],
)
def test_a_range_from_outside_is_validated(given: dict[str, int], error: str) -> None:
    """Ranges are dataclasses the parsers build directly; a tree from outside (an import,
    an enrichment body) still has every range checked."""
    node = {"node_id": "n", "kind": "sentence", "text": "ab", "range": given}
    with pytest.raises(ValidationError) as failure:
        SentenceNode.model_validate(node)
    assert failure.value.errors()[0]["type"] == error
    assert failure.value.errors()[0]["loc"][0] == "range"


def test_a_range_built_in_code_is_ordered_and_dumps_as_an_object() -> None:
    with pytest.raises(ValueError, match="end_offset must not be before start_offset"):
        NodeRange(5, 4)
    node = SentenceNode.model_validate(
        {
            "node_id": "n",
            "kind": "sentence",
            "text": "ab",
            "range": {"start_offset": 2, "end_offset": 4},
        }
    )
    assert node.range == NodeRange(2, 4)
    assert node.model_dump(mode="json")["range"] == {"start_offset": 2, "end_offset": 4}
    assert node.model_dump()["range"] == {"start_offset": 2, "end_offset": 4}


def test_title_comes_from_argument_then_first_heading_then_filename() -> None:
    assert parse_document(MARKDOWN.encode(), format="markdown", title="Given").title == "Given"
    assert parse_document(MARKDOWN.encode(), format="markdown").title == "Guide"
    parsed = parse_document(b"plain words", filename="dir/notes.final.txt")
    assert parsed.title == "notes.final"
    assert parsed.root.title == "notes.final"
    assert parse_document(b"plain words").title is None


def test_parsed_document_round_trips_through_json() -> None:
    """The pipeline stores `model_dump(mode="json")` and reads it back for re-chunking."""
    parsed = parse_document(MARKDOWN.encode(), filename="guide.md")
    restored = ParsedDocument.model_validate(parsed.model_dump(mode="json"))
    assert restored == parsed
    csv = parse_document(b"a,b\n1,2\n", filename="t.csv")
    assert ParsedDocument.model_validate_json(csv.model_dump_json()).csv_header == ["a", "b"]
