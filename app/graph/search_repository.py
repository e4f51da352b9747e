"""The SQL of graph retrieval: pattern, trigram and vector candidates, readable ones only."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.graph.repository import (
    ENTITY_COLUMNS,
    RELATION_COLUMNS,
    Visibility,
    _entity_visible,
    _relation_visible,
    _summary,
    like_escape,
)

TRIGRAM_THRESHOLD = 0.1
QUERY_VECTOR = "CAST(CAST(:v AS real[]) AS vector)"


def _patterns(terms: Sequence[str]) -> list[str]:
    return [f"%{like_escape(term)}%" for term in terms]


async def pattern_nodes(
    session: AsyncSession, vis: Visibility, terms: Sequence[str], *, limit: int
) -> list[Any]:
    """Entities whose name, or a readable mention's text (what their summary is made of),
    contains a term, freshest first. The summary is computed for the rows returned only."""
    visible, params = _entity_visible(vis)
    summary, summary_params = _summary(vis)
    acl, acl_params = vis.clause("pd")
    rows = await session.execute(
        text(
            f"SELECT {ENTITY_COLUMNS}, {summary} AS summary FROM graph_entities e WHERE e.id IN "
            "(SELECT e.id FROM graph_entities e WHERE e.knowledge_base_id = :kb "
            f"AND {visible} AND (e.name ILIKE ANY(:patterns) OR EXISTS (SELECT 1 FROM "
            "graph_entity_mentions pm JOIN documents pd ON pd.id = pm.document_id "
            f"WHERE pm.entity_id = e.id AND pm.description ILIKE ANY(:patterns) AND {acl})) "
            "ORDER BY e.updated_at DESC, e.id LIMIT :limit) "
            "ORDER BY e.updated_at DESC, e.id"
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
    visible, params = _relation_visible(vis)
    rows = await session.execute(
        text(
            f"SELECT {RELATION_COLUMNS} FROM graph_relations r WHERE r.knowledge_base_id = :kb "
            f"AND r.fact ILIKE ANY(:patterns) AND {visible} "
            "ORDER BY r.updated_at DESC, r.id LIMIT :limit"
        ),
        params | {"kb": vis.knowledge_base_id, "patterns": _patterns(terms), "limit": limit},
    )
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
    rows = await session.execute(
        text(
            f"SELECT {ENTITY_COLUMNS}, {summary} AS summary, found.score FROM ("
            "SELECT e.id, (SELECT max(similarity(e.name, t)) "
            "FROM unnest(CAST(:terms AS text[])) t) AS score "
            "FROM graph_entities e WHERE e.knowledge_base_id = :kb "
            "AND NOT (e.id = ANY(:exclude))) found JOIN graph_entities e ON e.id = found.id "
            f"WHERE found.score >= :threshold AND {visible} "
            "ORDER BY found.score DESC, e.id LIMIT :limit"
        ),
        params
        | summary_params
        | {
            "kb": vis.knowledge_base_id,
            "terms": list(terms),
            "threshold": TRIGRAM_THRESHOLD,
            "limit": limit,
            "exclude": list(exclude),
        },
    )
    return list(rows)


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
    visible, params = _relation_visible(vis)
    rows = await session.execute(
        text(
            f"SELECT * FROM (SELECT {RELATION_COLUMNS}, word_similarity(:joined, r.fact) "
            "AS score FROM graph_relations r WHERE r.knowledge_base_id = :kb "
            "AND NOT (r.id = ANY(:exclude))) found WHERE score >= :threshold "
            f"AND EXISTS (SELECT 1 FROM graph_relations r WHERE r.id = found.id AND {visible}) "
            "ORDER BY score DESC, id LIMIT :limit"
        ),
        params
        | {
            "kb": vis.knowledge_base_id,
            "joined": " ".join(terms),
            "threshold": TRIGRAM_THRESHOLD,
            "limit": limit,
            "exclude": list(exclude),
        },
    )
    return list(rows)


async def vector_nodes(
    session: AsyncSession,
    vis: Visibility,
    vector: list[float],
    *,
    limit: int,
    exclude: Sequence[uuid.UUID] = (),
) -> list[Any]:
    """Readable entities nearest the vector by their name embedding (cosine)."""
    visible, params = _entity_visible(vis)
    summary, summary_params = _summary(vis)
    rows = await session.execute(
        text(
            f"SELECT {ENTITY_COLUMNS}, {summary} AS summary, "
            f"1 - (e.name_embedding <=> {QUERY_VECTOR}) AS score FROM graph_entities e "
            f"WHERE e.knowledge_base_id = :kb AND e.name_embedding IS NOT NULL AND {visible} "
            "AND NOT (e.id = ANY(:exclude)) "
            f"ORDER BY e.name_embedding <=> {QUERY_VECTOR}, e.id LIMIT :limit"
        ),
        params
        | summary_params
        | {
            "kb": vis.knowledge_base_id,
            "v": _vector(vector),
            "limit": limit,
            "exclude": list(exclude),
        },
    )
    return list(rows)


async def vector_edges(
    session: AsyncSession,
    vis: Visibility,
    vector: list[float],
    *,
    limit: int,
    exclude: Sequence[uuid.UUID] = (),
) -> list[Any]:
    visible, params = _relation_visible(vis)
    rows = await session.execute(
        text(
            f"SELECT {RELATION_COLUMNS}, 1 - (r.fact_embedding <=> {QUERY_VECTOR}) AS score "
            "FROM graph_relations r WHERE r.knowledge_base_id = :kb "
            f"AND r.fact_embedding IS NOT NULL AND {visible} AND NOT (r.id = ANY(:exclude)) "
            f"ORDER BY r.fact_embedding <=> {QUERY_VECTOR}, r.id LIMIT :limit"
        ),
        params
        | {
            "kb": vis.knowledge_base_id,
            "v": _vector(vector),
            "limit": limit,
            "exclude": list(exclude),
        },
    )
    return list(rows)


def _vector(vector: list[float]) -> list[float]:
    """Sent as a binary float4[] and cast in SQL, as search does: it works whether or not the
    connection has pgvector's codec, and is not parsed from text at every mention."""
    return [float(x) for x in vector]
