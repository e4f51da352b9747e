"""The tree's JSON as the store step writes it: the object pydantic's own dump makes, written
in pieces so that it is held once, not twice; and a stored tree rebuilt as validation would
build it, at a fraction of validation's memory."""

from __future__ import annotations

import copy
import json
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from app.documents.stored_tree import tree_json
from app.ingestion import parse_document
from app.ingestion.parsers import ParsedDocument
from app.ingestion.stored import stored_document, stored_root
from app.ingestion.tree import (
    DocumentNode,
    NodeEnrichment,
    enrichments,
    iter_nodes,
    with_enrichments,
)
from tests.ingestion.samples import eml_bytes, prose_paragraphs, xlsx_bytes

MARKDOWN = b"""# Rivers

Intro before any subsection. It has two sentences.

## Floods

Spring floods reach the bank. The levee holds.

### Deltas

- silt settles
- the delta grows

```
code stays whole
```

## Empty

# Second top

Last words here.
"""

SAMPLES: dict[str, tuple[bytes, str]] = {
    "markdown": (MARKDOWN, "markdown"),
    "html": (
        b"<html><head><title>T</title></head><body><h1>A</h1><p>One. Two.</p>"
        b"<h2>B</h2><p>Three.</p><table><tr><td>x</td><td>y</td></tr></table></body></html>",
        "html",
    ),
    "csv": (b"name,team\nAnn,Platform\nBob,Search\n", "csv"),
    "text without sentences": (b"one line of words without an end", "text"),
    "unicode": ("Ünïcödé „quotes“ — dash. Emoji \U0001f30a here.\n\nπ ≈ 3.14.".encode(), "text"),
    "email": (eml_bytes(), "eml"),
    "xlsx": (xlsx_bytes(), "xlsx"),
}


@pytest.mark.parametrize("name", list(SAMPLES))
def test_the_written_json_is_pydantics_dump(name: str) -> None:
    data, fmt = SAMPLES[name]
    parsed = parse_document(data, format=fmt, filename=f"sample.{fmt}")
    assert json.loads(bytes(tree_json(parsed))) == json.loads(parsed.model_dump_json())


def test_enrichment_and_unset_fields_are_written_as_pydantic_writes_them() -> None:
    parsed = parse_document(MARKDOWN, format="markdown")
    nodes = [node.node_id for node in iter_nodes(parsed.root)]
    enriched = with_enrichments(
        parsed.root,
        {
            nodes[0]: NodeEnrichment(summary="All of it.", keywords=["river"]),
            nodes[-1]: NodeEnrichment(summary="The last words."),
        },
    )
    assert len(enrichments(enriched)) == 2
    parsed = parsed.model_copy(update={"root": enriched})
    written = json.loads(bytes(tree_json(parsed)))
    assert written == json.loads(parsed.model_dump_json())
    assert "enrichment" not in written["root"]["children"][0]  # absent, not null


def test_the_json_is_held_deflated_while_it_is_written() -> None:
    """Whole, the serialiser's buffer (which tracemalloc does not see) grows by doubling and
    is then copied to bytes; written in pieces and deflated as they come, the JSON is never
    whole in memory until the store step inflates it slice by slice."""
    paragraphs = prose_paragraphs(7, 1500)
    # One section holding everything: the pieces must be smaller than a top-level child.
    data = ("# Everything\n\n" + "\n\n".join(paragraphs)).encode()
    parsed = parse_document(data, format="markdown")
    tracemalloc.start()
    try:
        written = tree_json(parsed)
        _, written_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    size = len(bytes(written))
    assert written.deflated_size < size / 3
    # Beside the deflated buffer: one piece at a time, the largest being a node that holds
    # the whole text (the root, and here its one section), and the compressor's state.
    beside = written_peak - written.deflated_size
    assert beside < 3 * len(parsed.text), f"{beside / len(parsed.text):.2f}x the text"
    assert written_peak < 0.6 * size


def test_the_json_is_inflated_in_slices_of_the_size_asked() -> None:
    parsed = parse_document(("\n\n".join(prose_paragraphs(5, 300))).encode(), format="text")
    written = tree_json(parsed)
    slices = list(written.slices(size=4096))
    assert len(slices) > 2
    assert all(len(piece) <= 4096 for piece in slices)
    assert b"".join(slices) == bytes(written)
    assert json.loads(b"".join(slices)) == json.loads(parsed.model_dump_json())


@pytest.mark.parametrize("name", list(SAMPLES))
def test_a_stored_tree_is_rebuilt_as_validation_would_build_it(name: str) -> None:
    data, fmt = SAMPLES[name]
    stored = json.loads(
        bytes(tree_json(parse_document(data, format=fmt, filename=f"sample.{fmt}")))
    )
    before = copy.deepcopy(stored)
    rebuilt, validated = stored_document(stored), ParsedDocument.model_validate(stored)
    assert stored == before  # the stored mapping is read, not changed
    assert rebuilt.model_dump() == validated.model_dump()
    assert rebuilt.model_dump_json(exclude_unset=True) == validated.model_dump_json(
        exclude_unset=True
    )
    nodes = list(iter_nodes(rebuilt.root))
    assert [type(n) for n in nodes] == [type(n) for n in iter_nodes(validated.root)]


def test_a_stored_enrichment_is_rebuilt_as_a_model() -> None:
    parsed = parse_document(MARKDOWN, format="markdown")
    node_id = list(iter_nodes(parsed.root))[3].node_id
    enriched = parsed.model_copy(
        update={"root": with_enrichments(parsed.root, {node_id: NodeEnrichment(summary="Floods.")})}
    )
    rebuilt = stored_root(json.loads(bytes(tree_json(enriched)))["root"])
    assert enrichments(rebuilt) == {node_id: NodeEnrichment(summary="Floods.")}


@pytest.mark.parametrize(
    "damage",
    [
        lambda root: root["children"][0].update(kind="chapter"),
        lambda root: root["children"][0]["range"].update(end_offset=-1),
        lambda root: root["children"][0].pop("node_id"),
        lambda root: root["children"][0].update(colour="red"),
    ],
)
def test_a_tree_not_of_the_stored_shape_fails_as_validation_does(
    damage: Callable[[dict[str, Any]], object],
) -> None:
    root = json.loads(bytes(tree_json(parse_document(MARKDOWN, format="markdown"))))["root"]
    damage(root)
    with pytest.raises(ValidationError):
        stored_root(root)


def test_rebuilding_a_stored_tree_costs_less_than_half_of_validating_it() -> None:
    text = "\n\n".join(prose_paragraphs(3, 800))
    root = json.loads(bytes(tree_json(parse_document(text.encode(), format="text"))))["root"]
    peaks = []
    for build in (DocumentNode.model_validate, stored_root):
        tracemalloc.start()
        try:
            kept = build(root)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert len(list(iter_nodes(kept))) > 2000
        del kept
        peaks.append(peak)
    validated, rebuilt = peaks
    assert rebuilt < 0.5 * validated, f"{rebuilt / validated:.2f} of validation's peak"
