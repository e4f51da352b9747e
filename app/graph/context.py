"""Graph context for a model: definitions, facts and a Mermaid diagram of what was retrieved."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

MAX_LABEL = 40
_ID_UNSAFE = re.compile(r"[^A-Za-z0-9_]+")


@dataclass(frozen=True)
class ContextNode:
    id: uuid.UUID
    name: str
    type: str
    summary: str | None
    score: float


@dataclass(frozen=True)
class ContextEdge:
    id: uuid.UUID
    source_id: uuid.UUID
    target_id: uuid.UUID
    type: str
    fact: str
    score: float


@dataclass(frozen=True)
class GraphContext:
    definitions: str
    facts: str
    mermaid: str

    @property
    def text(self) -> str:
        """Both sections in the seed's wrapper, ready for a prompt."""
        return f"<definitions>\n{self.definitions}\n</definitions>\n<facts>\n{self.facts}\n</facts>"


def definitions(nodes: Sequence[ContextNode]) -> str:
    """`name: summary` pairs, comma-separated; a node without a summary is its name."""
    return ", ".join(f"{n.name}: {n.summary}" if n.summary else n.name for n in nodes)


def facts(nodes: Sequence[ContextNode], edges: Sequence[ContextEdge]) -> str:
    """One line per edge: `<source> <type> <target>, <fact>`."""
    names = {node.id: node.name for node in nodes}
    return "\n".join(
        f"{names.get(e.source_id, '?')} {e.type} {names.get(e.target_id, '?')}, {e.fact}"
        for e in edges
    )


def mermaid_id(name: str, taken: dict[str, str], key: uuid.UUID) -> str:
    """A Mermaid-safe id from the name (letters, digits, underscores), made unique."""
    base = _ID_UNSAFE.sub("_", name).strip("_") or "n"
    if base[0].isdigit():
        base = f"n_{base}"
    candidate, n = base, 2
    while candidate in taken and taken[candidate] != str(key):
        candidate, n = f"{base}_{n}", n + 1
    taken[candidate] = str(key)
    return candidate


def label(text: str) -> str:
    """A label Mermaid will not misread: quotes replaced, at most MAX_LABEL characters."""
    text = " ".join(text.replace('"', "'").replace("|", "/").split())
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1].rstrip() + "…"


def mermaid(nodes: Sequence[ContextNode], edges: Sequence[ContextEdge]) -> str:
    taken: dict[str, str] = {}
    ids = {node.id: mermaid_id(node.name, taken, node.id) for node in nodes}
    lines = ["graph TD"]
    lines += [f'  {ids[node.id]}["{label(node.name)}"]' for node in nodes]
    lines += [
        f'  {ids[e.source_id]} -->|"{label(e.type)}"| {ids[e.target_id]}'
        for e in edges
        if e.source_id in ids and e.target_id in ids
    ]
    return "\n".join(lines)


def build(nodes: Sequence[ContextNode], edges: Sequence[ContextEdge]) -> GraphContext:
    return GraphContext(definitions(nodes), facts(nodes, edges), mermaid(nodes, edges))
