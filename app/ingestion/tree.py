"""The document tree: typed nodes with ranges into the document's extracted text.

Trimming rule: every node's `text` is exactly `source[range.start_offset:range.end_offset]`,
where `source` is the extracted text (`ParsedDocument.text`) and offsets count Unicode code
points (Python `str` indices). Paragraph and sentence ranges are trimmed of surrounding
whitespace. A section's range runs from the first character of its header line to the end of
its last content (trimmed), or to the end of the header line when it has no content. The
document root spans the whole text, `[0, len(source))`. Children lie inside their parent, in
order, without overlapping.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.kit.strings import StoredText


class NodeKind(StrEnum):
    """The kinds of node a document tree holds."""

    DOCUMENT = "document"
    SECTION = "section"
    PARAGRAPH = "paragraph"
    SENTENCE = "sentence"
    TOPIC = "topic"


# A slotted dataclass, not a model: every node holds one, and a model with its field dict
# took 264 bytes where this takes 56 (a 5 MB document has some 100,000 nodes). Pydantic
# validates it wherever a tree comes from outside; parsers construct it directly.
@dataclass(frozen=True, slots=True)
class NodeRange:
    """A half-open `[start_offset, end_offset)` range of code points in the extracted text."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    start_offset: Annotated[int, Field(ge=0)]
    end_offset: Annotated[int, Field(ge=0)]

    def __post_init__(self) -> None:
        if self.end_offset < self.start_offset:
            raise ValueError("end_offset must not be before start_offset")


class Entity(BaseModel):
    """A named thing a node mentions, as an entity extractor reports it."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    text: StoredText = Field(min_length=1, max_length=500)
    type: StoredText | None = Field(default=None, max_length=100, description="e.g. `PERSON`.")
    score: float | None = Field(default=None, ge=0, le=1, description="The extractor's confidence.")


class NodeEnrichment(BaseModel):
    """What an enricher (a summariser, an entity extractor) derived from a node's text.

    Parsing never sets it; it is written through the API and survives a reindex. Search's
    `include=context` returns the ancestors' summaries with each hit.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    summary: StoredText | None = Field(default=None, min_length=1, max_length=4000)
    entities: list[Entity] = Field(default_factory=list, max_length=200)
    keywords: list[Annotated[StoredText, Field(min_length=1, max_length=200)]] = Field(
        default_factory=list, max_length=100
    )


class _NodeBase(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    node_id: str
    range: NodeRange
    text: str
    page_start: int | None = None
    page_end: int | None = None
    # Left out of the stored tree when absent: most nodes never have one.
    enrichment: NodeEnrichment | None = Field(default=None, exclude_if=lambda v: v is None)
    # The OCR engine's mean confidence over the lines of a node read from an image; absent
    # for text the document carried as text.
    confidence: float | None = Field(
        default=None, ge=0, le=1, exclude_if=lambda v: v is None, description="OCR only."
    )


class SentenceNode(_NodeBase):
    """A sentence inside a paragraph; always a leaf."""

    kind: Literal[NodeKind.SENTENCE] = NodeKind.SENTENCE


class ParagraphNode(_NodeBase):
    """A block of text; its children are its sentences when it has two or more."""

    kind: Literal[NodeKind.PARAGRAPH] = NodeKind.PARAGRAPH
    children: list[SentenceNode] = Field(default_factory=list)


class SectionNode(_NodeBase):
    """A heading and everything under it up to the next heading of the same or higher level."""

    kind: Literal[NodeKind.SECTION] = NodeKind.SECTION
    title: str
    level: int = Field(ge=0, le=9)
    children: list[ChildNode] = Field(default_factory=list)


class TopicNode(_NodeBase):
    """A semantic topic boundary; reserved, no parser produces it yet."""

    kind: Literal[NodeKind.TOPIC] = NodeKind.TOPIC
    children: list[ChildNode] = Field(default_factory=list)


class DocumentNode(_NodeBase):
    """The root of every document tree; it spans the whole extracted text."""

    kind: Literal[NodeKind.DOCUMENT] = NodeKind.DOCUMENT
    title: str | None = None
    children: list[ChildNode] = Field(default_factory=list)


ChildNode = Annotated[
    SectionNode | TopicNode | ParagraphNode | SentenceNode, Field(discriminator="kind")
]
Node = DocumentNode | SectionNode | TopicNode | ParagraphNode | SentenceNode
# Any node, told apart by `kind` (the document root included): what a node read answers.
AnyNode = Annotated[Node, Field(discriminator="kind")]

SectionNode.model_rebuild()
TopicNode.model_rebuild()
DocumentNode.model_rebuild()


# Field-name sets for `model_construct`, one per node shape, shared by every node of it:
# validated, each node held its own set. A shared set is never changed: the nodes are frozen,
# and `model_copy` copies it first. Given the fields a dump holds, a constructed node dumps
# the same as a validated one (`exclude_unset` included).
_FIELD_SETS: dict[frozenset[str], set[str]] = {}


def fields_set(fields: Mapping[str, Any], *more: str) -> set[str]:
    """The shared set of these field names (the keys of `fields` and `more`)."""
    key = frozenset((*fields, *more))
    shared = _FIELD_SETS.get(key)
    if shared is None:
        shared = _FIELD_SETS[key] = set(key)
    return shared


# The longest node id accepted from outside (imports, enrichment); parsers make 16 characters.
MAX_NODE_ID = 64


def make_node_id(doc_digest: str, kind: NodeKind, start: int, end: int, path: str) -> str:
    """Return a short stable id: the same text and position always give the same id."""
    key = f"{doc_digest}|{kind.value}|{start}|{end}|{path}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def children_of(node: Node) -> Sequence[ChildNode]:
    """Return the node's children (empty for a sentence); not a copy."""
    if isinstance(node, SentenceNode):
        return ()
    return node.children


def iter_nodes(root: Node) -> Iterator[Node]:
    """Yield every node in document order (pre-order), root first."""
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children_of(node)))


def iter_with_parents(root: Node) -> Iterator[tuple[Node, Node | None]]:
    """Yield `(node, parent)` pairs in document order; the root's parent is None."""
    stack: list[tuple[Node, Node | None]] = [(root, None)]
    while stack:
        node, parent = stack.pop()
        yield node, parent
        stack.extend((child, node) for child in reversed(children_of(node)))


def find_node(root: Node, node_id: str) -> Node | None:
    """Return the node with this id, or None."""
    return next((node for node in iter_nodes(root) if node.node_id == node_id), None)


def node_path(root: Node, node_id: str) -> list[Node]:
    """Return the nodes from the root down to and including `node_id`; KeyError if absent."""
    stack: list[tuple[Node, list[Node]]] = [(root, [root])]
    while stack:
        node, path = stack.pop()
        if node.node_id == node_id:
            return path
        stack.extend((child, [*path, child]) for child in children_of(node))
    raise KeyError(node_id)


def ancestors(root: Node, node_id: str) -> list[Node]:
    """Return the ancestors of `node_id` from the root to its parent; KeyError if absent."""
    return node_path(root, node_id)[:-1]


def leaves(root: Node) -> list[Node]:
    """Return the nodes without children, in document order."""
    return [node for node in iter_nodes(root) if not children_of(node)]


def containing_path(root: Node, start: int, end: int) -> list[Node]:
    """Return the path from the root to the deepest node whose range contains `[start, end)`."""
    path: list[Node] = [root]
    node: Node = root
    while True:
        children = children_of(node)
        # Children are ordered and disjoint, so only the last one starting at or before
        # `start` can contain the range.
        index = bisect.bisect_right(children, start, key=lambda c: c.range.start_offset) - 1
        if index < 0 or children[index].range.end_offset < end:
            return path
        node = children[index]
        path.append(node)


def enrichments(root: Node) -> dict[str, NodeEnrichment]:
    """Every node's enrichment, by node id."""
    return {node.node_id: node.enrichment for node in iter_nodes(root) if node.enrichment}


def with_enrichments(
    root: DocumentNode, updates: Mapping[str, NodeEnrichment | None]
) -> DocumentNode:
    """A copy of the tree with these nodes' enrichment set (None: removed); ids not in the tree
    are ignored. Nodes are frozen, so the nodes on the way to a changed one are copied."""

    def rebuilt(node: Node) -> Node:
        changes: dict[str, object] = {}
        if node.node_id in updates:
            changes["enrichment"] = updates[node.node_id]
        children = children_of(node)
        if children:
            copied = [rebuilt(child) for child in children]
            if any(new is not old for new, old in zip(copied, children, strict=True)):
                changes["children"] = copied
        return node.model_copy(update=changes) if changes else node

    result = rebuilt(root)
    assert isinstance(result, DocumentNode)
    return result


def invariant_problems(root: DocumentNode, source: str, *, limit: int = 10) -> list[str]:
    """What breaks the module's invariants in a tree that did not come from a parser (an
    import): ranges against `source`, nesting, order, unique ids. Empty when it holds."""
    problems: list[str] = []
    if (root.range.start_offset, root.range.end_offset) != (0, len(source)):
        problems.append(f"the root's range must be [0, {len(source)}), the whole text")
    seen: set[str] = set()
    for node in iter_nodes(root):
        start, end = node.range.start_offset, node.range.end_offset
        if node.node_id in seen:
            problems.append(f"node id {node.node_id!r} appears more than once")
        seen.add(node.node_id)
        if end > len(source) or node.text != source[start:end]:
            problems.append(f"node {node.node_id!r}: its text is not text[{start}:{end}]")
        previous_end = start
        for child in children_of(node):
            child_start, child_end = child.range.start_offset, child.range.end_offset
            if not (start <= child_start and child_end <= end):
                problems.append(f"node {child.node_id!r} lies outside its parent {node.node_id!r}")
            elif child_start < previous_end:
                problems.append(f"node {child.node_id!r} overlaps or precedes its previous sibling")
            previous_end = max(previous_end, child_end)
        if len(problems) >= limit:
            break
    return problems[:limit]
