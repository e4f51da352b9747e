"""Graph retrieval, the seed's two modes.

Standard: the query's entities (query analysis), then name/summary/fact pattern matches (60 %
of the caps) and pg_trgm similarity at 0.1 (40 %), merged without repeats within 15 nodes and
20 edges; when those find fewer than half of that, a vector fallback over name and fact
embeddings (up to 40 %). Scores: +3 a node whose name holds a query entity, +2 one whose
summary does; an edge +2 when its fact does, +3 / +1 when both / one endpoint is already
chosen. Endpoints of chosen edges that are missing are fetched.

Quick: a vector search over nodes and edges (60 / 40 of `search_limit`), then growth along
relations for up to `max_growth_levels` levels of at most 20 nodes and 30 edges each, scored
1 / (level + 1), stopping at the first level that adds no node.

Trigram and vector failures degrade (recorded in `actions`), they never abort.
"""

from __future__ import annotations

import logging
import math
import re
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.tenancy import read_through_tenant_views
from app.graph import repository, search_repository
from app.graph.context import ContextEdge, ContextNode
from app.graph.repository import Visibility

logger = logging.getLogger(__name__)

NODE_CAP = 15
EDGE_CAP = 20
PATTERN_SHARE = 0.6
TRIGRAM_SHARE = 0.4
VECTOR_SHARE = 0.4
NODES_PER_LEVEL = 20
EDGES_PER_LEVEL = 30
QUICK_NODE_SHARE = 0.6
MAX_QUERY_ENTITIES = 6
_WORD = re.compile(r"\w+")

VectorOf = Callable[[], Awaitable[list[float] | None]]


@dataclass
class Retrieved:
    nodes: dict[uuid.UUID, ContextNode] = field(default_factory=dict)
    edges: dict[uuid.UUID, ContextEdge] = field(default_factory=dict)
    entities: list[str] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)

    def ranked_nodes(self) -> list[ContextNode]:
        return sorted(self.nodes.values(), key=lambda n: (-n.score, n.name))

    def ranked_edges(self) -> list[ContextEdge]:
        return sorted(self.edges.values(), key=lambda e: (-e.score, str(e.id)))


def analyse_query(query: str) -> tuple[list[str], str]:
    """The query's entities and how they were found: the local pipeline's names and noun
    phrases, else (nothing found, or no pipeline) the seed's fallback, words of more than
    three characters."""
    found: list[str] = []
    method = "local"
    try:
        from app.graph.local import analyse

        found = [m.name for s in analyse([query])[0] for m in s.mentions]
    except Exception as exc:  # a missing model must not stop a search
        logger.warning("query analysis fell back to words: %s", exc)
    if not found:
        method = "words"
        found = [w for w in _WORD.findall(query) if len(w) > 3]
    unique = list(dict.fromkeys(term.strip() for term in found if term.strip()))
    return unique[:MAX_QUERY_ENTITIES], method


def _node(row: Any, score: float) -> ContextNode:
    return ContextNode(row.id, row.name, row.type, row.summary, score)


def _edge(row: Any, score: float) -> ContextEdge:
    return ContextEdge(row.id, row.source_id, row.target_id, row.type, row.fact, score)


def _contains(text: str | None, terms: Iterable[str]) -> bool:
    folded = (text or "").casefold()
    return any(term.casefold() in folded for term in terms)


def combine(groups: Sequence[tuple[Sequence[Any], int]], cap: int) -> list[Any]:
    """Rows of each group up to its share, without repeats by id, then the rest of every group
    in order while under the cap (a share one strategy leaves unused goes to the others)."""
    chosen: dict[uuid.UUID, Any] = {}
    for rows, share in groups:
        taken = 0
        for row in rows:
            if len(chosen) >= cap or taken >= share:
                break
            if row.id not in chosen:
                chosen[row.id] = row
                taken += 1
    for rows, _share in groups:
        for row in rows:
            if len(chosen) >= cap:
                break
            chosen.setdefault(row.id, row)
    return list(chosen.values())


async def _degrading(
    session: AsyncSession, actions: list[dict[str, Any]], what: str, step: Callable[[], Any]
) -> Any:
    """Run a search step in a savepoint; on failure record it and go on without its rows."""
    try:
        async with session.begin_nested():
            return await step()
    except Exception as exc:
        logger.warning("graph %s failed: %s", what, exc)
        actions.append({"step": what, "degraded": True, "reason": type(exc).__name__})
        return None


def _base_score(row: Any, default: float) -> float:
    return float(getattr(row, "score", None) or default)


async def standard(
    session: AsyncSession, vis: Visibility, query: str, *, vector_of: VectorOf
) -> Retrieved:
    out = Retrieved()
    await read_through_tenant_views(session)  # the trigram indexes, not scans (0026)
    terms, method = analyse_query(query)
    out.entities = terms
    out.actions.append(
        {"step": "analyze_query", "entities": terms, "intent": "factual", "method": method}
    )
    if not terms:
        return out
    node_share = math.ceil(NODE_CAP * PATTERN_SHARE)
    edge_share = math.ceil(EDGE_CAP * PATTERN_SHARE)
    pattern_nodes = await search_repository.pattern_nodes(session, vis, terms, limit=node_share)
    pattern_edges = await search_repository.pattern_edges(session, vis, terms, limit=edge_share)
    trigram_n, trigram_e = NODE_CAP - node_share, EDGE_CAP - edge_share
    trigram_nodes = (
        await _degrading(
            session,
            out.actions,
            "trigram_search",
            lambda: search_repository.trigram_nodes(
                session, vis, terms, limit=trigram_n, exclude=[r.id for r in pattern_nodes]
            ),
        )
        or []
    )
    trigram_edges = (
        await _degrading(
            session,
            out.actions,
            "trigram_search",
            lambda: search_repository.trigram_edges(
                session, vis, terms, limit=trigram_e, exclude=[r.id for r in pattern_edges]
            ),
        )
        or []
    )
    nodes = combine([(pattern_nodes, node_share), (trigram_nodes, trigram_n)], NODE_CAP)
    edges = combine([(pattern_edges, edge_share), (trigram_edges, trigram_e)], EDGE_CAP)
    counts = {
        "pattern_nodes": len(pattern_nodes),
        "pattern_edges": len(pattern_edges),
        "trigram_nodes": len(trigram_nodes),
        "trigram_edges": len(trigram_edges),
        "vector_nodes": 0,
        "vector_edges": 0,
    }
    if len(nodes) + len(edges) < (NODE_CAP + EDGE_CAP) / 2:
        vector = await vector_of()
        if vector is None:
            out.actions.append({"step": "vector_fallback", "degraded": True, "reason": "no vector"})
        else:
            vn, ve = math.floor(NODE_CAP * VECTOR_SHARE), math.floor(EDGE_CAP * VECTOR_SHARE)
            vector_nodes = (
                await _degrading(
                    session,
                    out.actions,
                    "vector_fallback",
                    lambda: search_repository.vector_nodes(
                        session, vis, vector, limit=vn, exclude=[r.id for r in nodes]
                    ),
                )
                or []
            )
            vector_edges = (
                await _degrading(
                    session,
                    out.actions,
                    "vector_fallback",
                    lambda: search_repository.vector_edges(
                        session, vis, vector, limit=ve, exclude=[r.id for r in edges]
                    ),
                )
                or []
            )
            counts |= {"vector_nodes": len(vector_nodes), "vector_edges": len(vector_edges)}
            nodes = combine([(nodes, NODE_CAP), (vector_nodes, vn)], NODE_CAP)
            edges = combine([(edges, EDGE_CAP), (vector_edges, ve)], EDGE_CAP)
    for row in nodes:
        score = _base_score(row, 1.0)
        score += 3 if _contains(row.name, terms) else 0
        score += 2 if _contains(row.summary, terms) else 0
        out.nodes[row.id] = _node(row, score)
    chosen = set(out.nodes)
    for row in edges:
        score = _base_score(row, 1.0)
        score += 2 if _contains(row.fact, terms) else 0
        ends = (row.source_id in chosen) + (row.target_id in chosen)
        score += 3 if ends == 2 else 1 if ends == 1 else 0
        out.edges[row.id] = _edge(row, score)
    await _fetch_endpoints(session, vis, out, terms)
    out.actions.append(
        {"step": "retrieve_knowledge", **counts, "nodes": len(out.nodes), "edges": len(out.edges)}
    )
    return out


async def _fetch_endpoints(
    session: AsyncSession, vis: Visibility, out: Retrieved, terms: Sequence[str], score: float = 0.0
) -> None:
    """The chosen edges' endpoints not chosen yet; an edge whose endpoint cannot be read (it
    cannot happen while mentions are written per sentence, but an LLM may say otherwise) goes."""
    missing = {e.source_id for e in out.edges.values()} | {e.target_id for e in out.edges.values()}
    missing -= set(out.nodes)
    if not missing:
        return
    for row in await repository.entities_by_id(session, vis, sorted(missing)):
        bonus = 3 if _contains(row.name, terms) else 0
        bonus += 2 if _contains(row.summary, terms) else 0
        out.nodes[row.id] = _node(row, score + bonus)
    for edge_id, edge in list(out.edges.items()):
        if edge.source_id not in out.nodes or edge.target_id not in out.nodes:
            del out.edges[edge_id]


async def quick(
    session: AsyncSession,
    vis: Visibility,
    query: str,
    *,
    vector_of: VectorOf,
    search_limit: int,
    max_growth_levels: int,
) -> Retrieved:
    out = Retrieved()
    await read_through_tenant_views(session)
    vector = await vector_of()
    node_limit = max(1, round(search_limit * QUICK_NODE_SHARE))
    edge_limit = max(0, search_limit - node_limit)
    if vector is None:
        # No vector (no embedder, or it failed): the seed's trigram helpers stand in.
        out.actions.append({"step": "semantic_search", "degraded": True, "reason": "no vector"})
        words = [w for w in _WORD.findall(query) if len(w) > 3] or [query]
        nodes = await _degrading(
            session,
            out.actions,
            "trigram_search",
            lambda: search_repository.trigram_nodes(session, vis, words, limit=node_limit),
        )
        edges = await _degrading(
            session,
            out.actions,
            "trigram_search",
            lambda: search_repository.trigram_edges(session, vis, words, limit=edge_limit),
        )
    else:
        nodes = await _degrading(
            session,
            out.actions,
            "semantic_search",
            lambda: search_repository.vector_nodes(session, vis, vector, limit=node_limit),
        )
        edges = await _degrading(
            session,
            out.actions,
            "semantic_search",
            lambda: search_repository.vector_edges(session, vis, vector, limit=edge_limit),
        )
    for row in nodes or []:
        out.nodes[row.id] = _node(row, _base_score(row, 1.0))
    for row in edges or []:
        out.edges[row.id] = _edge(row, _base_score(row, 1.0))
    out.actions.append(
        {"step": "semantic_search", "nodes": len(out.nodes), "edges": len(out.edges)}
    )
    await _fetch_endpoints(session, vis, out, (), score=0.5)
    frontier = set(out.nodes)
    for level in range(1, max_growth_levels + 1):
        score = 1.0 / (level + 1)
        rows = await repository.relations(
            session,
            vis,
            entity_ids=sorted(frontier),
            exclude=sorted(out.edges),
            limit=EDGES_PER_LEVEL,
        )
        new_ids: list[uuid.UUID] = []
        for row in rows:
            for end in (row.source_id, row.target_id):
                if end not in out.nodes and end not in new_ids:
                    new_ids.append(end)
        fetched = await repository.entities_by_id(session, vis, new_ids[:NODES_PER_LEVEL])
        for entity in fetched:
            out.nodes[entity.id] = _node(entity, score)
        added_edges = 0
        for row in rows:
            if row.source_id in out.nodes and row.target_id in out.nodes:
                out.edges[row.id] = _edge(row, score)
                added_edges += 1
        out.actions.append(
            {"step": "grow", "level": level, "nodes": len(fetched), "edges": added_edges}
        )
        if not fetched:
            out.actions.append({"step": "grow", "level": level, "stopped": "no new nodes"})
            break
        frontier = {entity.id for entity in fetched}
    return out
