"""Trees read back from storage, rebuilt without validating them node by node.

A stored tree is the JSON of a tree that was built by a parser or validated on its way in (an
import, an enrichment), so every node already has its fields' types. Validating it again cost
about 35 times the document's text in memory (a validated node keeps state per field; about
1.8 KB per sentence of some 80 characters), where rebuilding it with `model_construct` costs
13-15 times, the parsed JSON included (docs/benchmarks.md, "Memory per upload"). Reindexing,
the graph stage and tree reads all start from a stored tree.

A tree that does not have the stored shape (a node of unknown kind, a missing field) is
validated instead, so that it fails with the same error it always did.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.ingestion.parsers.base import ParsedDocument
from app.ingestion.tree import (
    DocumentNode,
    Node,
    NodeEnrichment,
    NodeRange,
    ParagraphNode,
    SectionNode,
    SentenceNode,
    TopicNode,
    fields_set,
)

_CLASSES: dict[str, type[Node]] = {
    str(cls.model_fields["kind"].default): cls
    for cls in (DocumentNode, SectionNode, TopicNode, ParagraphNode, SentenceNode)
}


class _NotStoredShape(Exception):
    """The mapping is not a tree as the store step writes one."""


def stored_root(root: Mapping[str, Any]) -> DocumentNode:
    """The document node of a stored tree (`tree["root"]`); `root` itself is not changed."""
    try:
        built = _node(root)
    except (_NotStoredShape, KeyError, TypeError, AttributeError):
        return DocumentNode.model_validate(root)
    if not isinstance(built, DocumentNode):
        return DocumentNode.model_validate(root)
    return built


def stored_document(tree: Mapping[str, Any]) -> ParsedDocument:
    """A stored tree as its ParsedDocument: the few fields beside the root validated, the root
    rebuilt (an instance passes validation as it is)."""
    return ParsedDocument.model_validate({**tree, "root": stored_root(tree["root"])})


def _node(stored: Mapping[str, Any]) -> Node:
    cls = _CLASSES.get(stored["kind"])
    if cls is None or not cls.model_fields.keys() >= stored.keys():
        raise _NotStoredShape
    fields = dict(stored)
    start, end = stored["range"]["start_offset"], stored["range"]["end_offset"]
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end):
        raise _NotStoredShape
    fields["range"] = NodeRange(start, end)
    if stored.get("enrichment") is not None:
        fields["enrichment"] = NodeEnrichment.model_validate(stored["enrichment"])
    if "children" in stored:
        fields["children"] = [_node(child) for child in stored["children"]]
    missing = [
        name
        for name, field in cls.model_fields.items()
        if field.is_required() and name not in fields
    ]
    if missing:
        raise _NotStoredShape
    return cls.model_construct(fields_set(fields), **fields)
