"""The SQL of graph retrieval: pattern, trigram and vector candidates, readable ones only."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import TextClause, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from app.chunks.vector_index import vector_cast
from app.graph.repository import (
    ENTITY_COLUMNS,
    RELATION_COLUMNS,
    Visibility,
    _entity_visible,
    _relation_visible,
    _summary,
    like_escape,
)

logger = logging.getLogger(__name__)

TRIGRAM_THRESHOLD = 0.1
# The time one threshold of a trigram step may take before the rows of the one above stand.
TRIGRAM_STEP_BUDGET_MS = 500
QUERY_CANCELED = "57014"
# Thresholds tried before the seed's 0.1 (see _most_similar); the last must be 0.1.
THRESHOLD_STEPS = (0.5, 0.3, 0.2, TRIGRAM_THRESHOLD)
# The HNSW walk's breadth: at least this, at least twice the rows asked for.
VECTOR_EF_SEARCH = 40


def _patterns(terms: Sequence[str]) -> list[str]:
    return [f"%{like_escape(term)}%" for term in terms]


async def pattern_nodes(
    session: AsyncSession, vis: Visibility, terms: Sequence[str], *, limit: int
) -> list[Any]:
    """Entities whose name, or a readable mention's text (what their summary is made of),
    contains a term, freshest first. The summary is computed for the rows returned only.

    The candidates come first, each match a bitmap scan of its trigram index (a UNION, not an
    OR across tables); materialised, so that the planner, which misjudges the tenant views'
    conditions, cannot start from the knowledge base's every mention instead."""
    visible, params = _entity_visible(vis)
    summary, summary_params = _summary(vis)
    acl, acl_params = vis.clause("pd")
    rows = await session.execute(
        text(
            "WITH named AS MATERIALIZED (SELECT n.id FROM graph_entities n "
            "WHERE n.knowledge_base_id = :kb AND n.name ILIKE ANY(:patterns)), "
            "described AS MATERIALIZED (SELECT pm.entity_id, pm.document_id "
            "FROM graph_entity_mentions pm WHERE pm.knowledge_base_id = :kb "
            "AND pm.description ILIKE ANY(:patterns)), "
            "chosen AS MATERIALIZED (SELECT e.id FROM graph_entities e WHERE e.id IN ("
            "SELECT id FROM named UNION SELECT d.entity_id FROM described d "
            f"JOIN documents pd ON pd.id = d.document_id WHERE {acl}) "
            f"AND e.knowledge_base_id = :kb AND {visible} "
            "ORDER BY e.updated_at DESC, e.id LIMIT :limit) "
            f"SELECT {ENTITY_COLUMNS}, {summary} AS summary FROM graph_entities e "
            "WHERE e.id IN (SELECT id FROM chosen) ORDER BY e.updated_at DESC, e.id"
        ),
        params
        | summary_params
        | acl_params
        | {"kb": vis.knowledge_base_id, "patterns": _patterns(terms), "limit": limit},
    )
    return list(rows)


async def pattern_edges(
    session: AsyncSession, vis: Visibility, terms: Sequence[str], *, limit: int
) -> list[Any]:
    """Relations whose fact contains a term, freshest first (candidates first, as above)."""
    visible, params = _relation_visible(vis, "f")
    rows = await session.execute(
        text(
            f"WITH found AS MATERIALIZED (SELECT {RELATION_COLUMNS} FROM graph_relations r "
            "WHERE r.knowledge_base_id = :kb AND r.fact ILIKE ANY(:patterns)) "
            f"SELECT * FROM found f WHERE {visible} ORDER BY f.updated_at DESC, f.id LIMIT :limit"
        ),
        params | {"kb": vis.knowledge_base_id, "patterns": _patterns(terms), "limit": limit},
    )
    return list(rows)


async def _most_similar(
    session: AsyncSession, limit: int, run: Callable[[float], Awaitable[Sequence[Any]]]
) -> list[Any]:
    """`run(t)`: the `limit` most similar readable rows at or above t, with pg_trgm's `%` and
    `<%` at t (for the rest of the transaction: search sets its own threshold in every search).

    Tried at descending thresholds down to 0.1: every row below t ranks after every row at or
    above it, so once a threshold finds `limit` rows they are exactly the top `limit` at 0.1.
    A higher threshold lets the trigram index rule out far more rows, and the similarity is
    computed for the candidates only (0.1 word similarity holds for a third of all facts).

    Each lower threshold gets TRIGRAM_STEP_BUDGET_MS: pg_trgm rechecks every candidate the
    index gives (thousands of facts at 0.2 and 0.1 in a large graph, 15 s at 10,000 chunks'
    worth), so one that takes longer is cancelled and the rows of the threshold before it
    stand: fewer rows, but the most similar ones."""
    rows: Sequence[Any] = []
    for threshold in THRESHOLD_STEPS:
        try:
            async with session.begin_nested():
                await session.execute(
                    text(
                        "SELECT set_config('pg_trgm.similarity_threshold', :t, true), "
                        "set_config('pg_trgm.word_similarity_threshold', :t, true), "
                        "set_config('statement_timeout', :budget, true)"
                    ),
                    {"t": str(threshold), "budget": f"{TRIGRAM_STEP_BUDGET_MS}ms"},
                )
                found = await run(threshold)
                await session.execute(text("SELECT set_config('statement_timeout', '0', true)"))
        except DBAPIError as exc:
            if getattr(exc.orig, "sqlstate", None) != QUERY_CANCELED:
                raise
            logger.warning("trigram step stopped above %s: over its time budget", threshold)
            break
        rows = found
        if len(rows) >= limit:
            break
    return list(rows)


async def trigram_nodes(
    session: AsyncSession,
    vis: Visibility,
    terms: Sequence[str],
    *,
    limit: int,
    exclude: Sequence[uuid.UUID] = (),
) -> list[Any]:
    """Entities whose name is trigram-similar (>= 0.1) to a term, most similar first."""
    visible, params = _entity_visible(vis)
    summary, summary_params = _summary(vis)
    statement = text(
        "WITH found AS MATERIALIZED (SELECT e.id, (SELECT max(similarity(e.name, t)) "
        "FROM unnest(CAST(:terms AS text[])) t) AS score "
        "FROM graph_entities e WHERE e.knowledge_base_id = :kb "
        "AND e.name % ANY(CAST(:terms AS text[])) AND NOT (e.id = ANY(:exclude))) "
        f"SELECT {ENTITY_COLUMNS}, {summary} AS summary, found.score FROM found "
        f"JOIN graph_entities e ON e.id = found.id WHERE found.score >= :threshold AND {visible} "
        "ORDER BY found.score DESC, e.id LIMIT :limit"
    )
    common = params | summary_params
    common |= {"kb": vis.knowledge_base_id, "terms": list(terms), "limit": limit}
    common["exclude"] = list(exclude)

    async def run(threshold: float) -> Sequence[Any]:
        return list(await session.execute(statement, common | {"threshold": threshold}))

    return await _most_similar(session, limit, run)


async def trigram_edges(
    session: AsyncSession,
    vis: Visibility,
    terms: Sequence[str],
    *,
    limit: int,
    exclude: Sequence[uuid.UUID] = (),
) -> list[Any]:
    """Relations whose fact holds a stretch trigram-similar (>= 0.1) to the query's entities,
    compared together: one word similarity per fact (per term, it cost ten on long facts)."""
    visible, params = _relation_visible(vis, "found")
    statement = text(
        f"WITH found AS MATERIALIZED (SELECT {RELATION_COLUMNS}, "
        "word_similarity(:joined, r.fact) AS score FROM graph_relations r "
        "WHERE r.knowledge_base_id = :kb AND :joined <% r.fact "
        "AND NOT (r.id = ANY(:exclude))) "
        f"SELECT * FROM found WHERE score >= :threshold AND {visible} "
        "ORDER BY score DESC, id LIMIT :limit"
    )
    common = params | {"kb": vis.knowledge_base_id, "joined": " ".join(terms), "limit": limit}
    common["exclude"] = list(exclude)

    async def run(threshold: float) -> Sequence[Any]:
        return list(await session.execute(statement, common | {"threshold": threshold}))

    return await _most_similar(session, limit, run)


async def _nearest_rows(
    session: AsyncSession, statement: TextClause, params: dict[str, Any], limit: int
) -> list[Any]:
    """Run a nearest-first statement so that the knowledge base's partial HNSW index
    (app/graph/vector_index.py) can serve it.

    `plan_cache_mode`: the partial index only matches in a custom plan, where the planner sees
    the knowledge base id. `iterative_scan`: the walk goes on past `ef_search` while rows fail
    the visibility check. `enable_sort = off` for this statement only: the planner expects a
    handful of rows under the tenant conditions (51 where 10,000 were) and would sort them all
    rather than read the index in order; without an index the sort is still the only plan."""
    await session.execute(
        text(
            "SELECT set_config('plan_cache_mode', 'force_custom_plan', true), "
            "set_config('hnsw.iterative_scan', 'relaxed_order', true), "
            "set_config('hnsw.ef_search', :ef, true), "
            "set_config('enable_sort', 'off', true)"
        ),
        {"ef": str(max(VECTOR_EF_SEARCH, 2 * limit))},
    )
    rows = list(await session.execute(statement, params))
    # (A failed statement needs no reset: its savepoint's rollback undoes the settings.)
    await session.execute(text("SELECT set_config('enable_sort', 'on', true)"))
    return rows


def _nearest(column: str, vector: list[float]) -> str:
    """The distance on the index's expression: the column cast to the vector's dimension."""
    cast = vector_cast(len(vector))
    return f"({column}::{cast} <=> CAST(CAST(:v AS real[]) AS {cast}))"


async def vector_nodes(
    session: AsyncSession,
    vis: Visibility,
    vector: list[float],
    *,
    limit: int,
    exclude: Sequence[uuid.UUID] = (),
) -> list[Any]:
    """Readable entities nearest the vector by their name embedding (cosine), nearest first.

    Nearest first, then readable: the ordered subquery (OFFSET 0 keeps the check out of it) is
    read only until `limit` readable rows came, instead of checking every entity. With the
    knowledge base's HNSW index that order is the index's walk (approximate), else an exact
    sort of the knowledge base's vectors."""
    visible, params = _entity_visible(vis)
    summary, summary_params = _summary(vis)
    distance = _nearest("e.name_embedding", vector)
    return await _nearest_rows(
        session,
        text(
            f"SELECT * FROM (SELECT {ENTITY_COLUMNS}, {summary} AS summary, e.score FROM ("
            f"SELECT {ENTITY_COLUMNS}, 1 - {distance} AS score FROM graph_entities e "
            "WHERE e.knowledge_base_id = :kb AND e.name_embedding IS NOT NULL "
            "AND NOT (e.id = ANY(:exclude)) "
            f"ORDER BY {distance} OFFSET 0) e "
            f"WHERE {visible} LIMIT :limit) e ORDER BY e.score DESC, e.id"
        ),
        params
        | summary_params
        | {
            "kb": vis.knowledge_base_id,
            "v": _vector(vector),
            "limit": limit,
            "exclude": list(exclude),
        },
        limit,
    )


async def vector_edges(
    session: AsyncSession,
    vis: Visibility,
    vector: list[float],
    *,
    limit: int,
    exclude: Sequence[uuid.UUID] = (),
) -> list[Any]:
    """Readable relations nearest the vector by their fact embedding (as vector_nodes)."""
    visible, params = _relation_visible(vis)
    distance = _nearest("r.fact_embedding", vector)
    return await _nearest_rows(
        session,
        text(
            f"SELECT * FROM (SELECT {RELATION_COLUMNS}, r.score FROM (SELECT {RELATION_COLUMNS}, "
            f"1 - {distance} AS score FROM graph_relations r "
            "WHERE r.knowledge_base_id = :kb AND r.fact_embedding IS NOT NULL "
            "AND NOT (r.id = ANY(:exclude)) "
            f"ORDER BY {distance} OFFSET 0) r "
            f"WHERE {visible} LIMIT :limit) r ORDER BY r.score DESC, r.id"
        ),
        params
        | {
            "kb": vis.knowledge_base_id,
            "v": _vector(vector),
            "limit": limit,
            "exclude": list(exclude),
        },
        limit,
    )


def _vector(vector: list[float]) -> list[float]:
    """Sent as a binary float4[] and cast in SQL, as search does: it works whether or not the
    connection has pgvector's codec, and is not parsed from text at every mention."""
    return [float(x) for x in vector]
