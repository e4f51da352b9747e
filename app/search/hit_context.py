"""Context read around search hits: tree paths, neighbouring chunks, lineage."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    select,
    text,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement

from app.models import Chunk, Document

chunks = Chunk.__table__
documents = Document.__table__


MAX_PARENT_TEXT = 4000


async def tree_paths(
    session: AsyncSession, chunk_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, list[dict[str, Any]]]:
    """For each chunk, the tree nodes along its node_path, root first (text capped).

    Walks down from the root following node ids through each node's `children`, so it reads
    only the children lists on the way, never the whole tree.
    """
    if not chunk_ids:
        return {}
    statement = text(
        """
        WITH RECURSIVE hit AS (
            SELECT c.id, c.node_path, d.tree
            FROM chunks c JOIN documents d ON d.id = c.document_id
            WHERE c.id = ANY(CAST(:ids AS uuid[])) AND d.tree IS NOT NULL
              AND cardinality(c.node_path) > 0
        ), walk(id, depth, node) AS (
            SELECT hit.id, 1, hit.tree->'root' FROM hit
            WHERE hit.tree->'root'->>'node_id' = hit.node_path[1]
            UNION ALL
            SELECT walk.id, walk.depth + 1, child.node
            FROM walk JOIN hit ON hit.id = walk.id
            CROSS JOIN LATERAL (
                SELECT jsonb_path_query_first(
                    walk.node, '$.children[*] ? (@.node_id == $id)',
                    jsonb_build_object('id', hit.node_path[walk.depth + 1])
                ) AS node
            ) child
            WHERE walk.depth < cardinality(hit.node_path) AND child.node IS NOT NULL
        )
        SELECT id, depth, node - 'children' - 'text' AS node,
               left(node->>'text', :cap) AS text, length(node->>'text') > :cap AS truncated
        FROM walk ORDER BY id, depth
        """
    )
    rows = await session.execute(statement, {"ids": list(chunk_ids), "cap": MAX_PARENT_TEXT})
    paths: dict[uuid.UUID, list[dict[str, Any]]] = {}
    for chunk_id, _depth, node, node_text, truncated in rows.all():
        paths.setdefault(chunk_id, []).append(
            {**node, "text": node_text or "", "truncated": bool(truncated)}
        )
    return paths


async def neighbours(
    session: AsyncSession, chunk_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, dict[int, tuple[uuid.UUID, int, str]]]:
    """For each chunk, the chunks just before (-1) and after (+1) it in its document."""
    if not chunk_ids:
        return {}
    statement = text(
        """
        SELECT c.id, n.chunk_index - c.chunk_index AS side, n.id, n.chunk_index, n.text
        FROM chunks c
        JOIN chunks n ON n.document_id = c.document_id
             AND n.chunk_index IN (c.chunk_index - 1, c.chunk_index + 1)
        WHERE c.id = ANY(CAST(:ids AS uuid[]))
        """
    )
    found: dict[uuid.UUID, dict[int, tuple[uuid.UUID, int, str]]] = {}
    for chunk_id, side, other_id, index, other_text in (
        await session.execute(statement, {"ids": list(chunk_ids)})
    ).all():
        found.setdefault(chunk_id, {})[int(side)] = (other_id, index, other_text)
    return found


async def chunk_lineage(
    session: AsyncSession,
    knowledge_base_id: uuid.UUID,
    chunk_ids: Sequence[uuid.UUID],
    *,
    visible: ColumnElement[bool],
) -> list[tuple[uuid.UUID, list[str]]]:
    """The node paths of these chunks of the knowledge base whose documents `visible` admits."""
    if not chunk_ids:
        return []
    rows = await session.execute(
        select(chunks.c.id, chunks.c.node_path)
        .select_from(chunks.join(documents, documents.c.id == chunks.c.document_id))
        .where(
            chunks.c.knowledge_base_id == knowledge_base_id,
            chunks.c.id.in_(list(chunk_ids)),
            visible,
        )
    )
    return [(chunk_id, list(node_path or [])) for chunk_id, node_path in rows.all()]
