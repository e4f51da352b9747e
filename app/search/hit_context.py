"""Context read around search hits: tree paths, neighbouring chunks, lineage."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement

from app.models import Chunk, Document
from app.search.candidates import its_document

chunks = Chunk.__table__
documents = Document.__table__


# At most the text `document_nodes` keeps of a node (migration 0031: 4,000 characters).
MAX_PARENT_TEXT = 4000


# A chunk is its id within its knowledge base: two knowledge bases may hold the same id.
ChunkKey = tuple[uuid.UUID, uuid.UUID]


def _key_values(project_id: uuid.UUID, keys: Sequence[ChunkKey]) -> dict[str, Any]:
    """The keys as parallel arrays, and their knowledge bases alone: a constant list the
    planner prunes the partitions of `chunks` by; and their project, named in every join so
    that a database sharded by project reads one shard (docs/scaling.md)."""
    return {
        "project": project_id,
        "key_kbs": [kb for kb, _ in keys],
        "key_ids": [chunk_id for _, chunk_id in keys],
        "kbs": list(dict.fromkeys(kb for kb, _ in keys)),
    }


KEYED_CHUNKS = (
    "unnest(CAST(:key_kbs AS uuid[]), CAST(:key_ids AS uuid[])) AS k(kb, id) "
    "JOIN chunks c ON c.knowledge_base_id = k.kb AND c.id = k.id "
    "AND c.knowledge_base_id = ANY(CAST(:kbs AS uuid[])) AND c.project_id = :project"
)
# A keyed chunk's document, joined on the whole key.
ITS_DOCUMENT = "JOIN documents d ON d.id = c.document_id AND d.project_id = c.project_id"


def _by_path_position(row: Any) -> tuple[str, str, int]:
    """(knowledge base, chunk, depth): the order of a path's rows. Sorted here, not in SQL:
    a search's transaction runs with `enable_sort = off` (app/search/repository.py), and
    with an ORDER BY the planner read the knowledge base's every chunk in index order to
    avoid sorting twenty rows (40 ms a search on SciFact)."""
    return str(row[0]), str(row[1]), int(row[2])


async def tree_paths(
    session: AsyncSession, project_id: uuid.UUID, keys: Sequence[ChunkKey]
) -> dict[ChunkKey, list[dict[str, Any]]]:
    """For each chunk, the tree nodes along its node_path, root first (text capped).

    One probe of `document_nodes` per node of the path (migration 0031 keeps those rows from
    the tree): a JSONB tree is read whole, so walking it cost a hit in a large document the
    whole tree's decompression. The path ends where the tree has no node of that id at that
    depth, as a walk from the root through each node's children would. Sentences have no
    rows: a path that goes on to one is walked in the tree.
    """
    if not keys:
        return {}
    statement = text(
        f"""
        SELECT c.knowledge_base_id, c.id, p.depth, n.node, left(n.text, :cap) AS text,
               n.text_length > :cap AS truncated, d.tree IS NOT NULL AS has_tree
        FROM {KEYED_CHUNKS} {ITS_DOCUMENT}
        CROSS JOIN LATERAL unnest(c.node_path) WITH ORDINALITY AS p(node_id, depth)
        LEFT JOIN document_nodes n ON n.document_id = c.document_id
             AND n.project_id = c.project_id AND n.node_id = p.node_id AND n.depth = p.depth - 1
        """
    )
    values = {**_key_values(project_id, keys), "cap": MAX_PARENT_TEXT}
    rows = await session.execute(statement, values)
    paths: dict[ChunkKey, list[dict[str, Any]]] = {}
    to_walk: list[ChunkKey] = []
    for kb, chunk_id, depth, node, node_text, truncated, has_tree in sorted(
        rows.all(), key=_by_path_position
    ):
        path = paths.setdefault((kb, chunk_id), [])
        if len(path) != depth - 1:  # a node above it is missing: the path ended there
            continue
        if node is not None:
            path.append({**node, "text": node_text or "", "truncated": bool(truncated)})
        elif has_tree:
            to_walk.append((kb, chunk_id))
    paths.update(await _walked_paths(session, project_id, to_walk))
    return paths


async def _walked_paths(
    session: AsyncSession, project_id: uuid.UUID, keys: Sequence[ChunkKey]
) -> dict[ChunkKey, list[dict[str, Any]]]:
    """The paths of these chunks walked in their documents' trees, from the root down through
    each node's `children` (the whole tree is read)."""
    if not keys:
        return {}
    statement = text(
        f"""
        WITH RECURSIVE hit AS (
            SELECT c.knowledge_base_id AS kb, c.id, c.node_path, d.tree
            FROM {KEYED_CHUNKS} {ITS_DOCUMENT}
            WHERE d.tree IS NOT NULL AND cardinality(c.node_path) > 0
        ), walk(kb, id, depth, node) AS (
            SELECT hit.kb, hit.id, 1, hit.tree->'root' FROM hit
            WHERE hit.tree->'root'->>'node_id' = hit.node_path[1]
            UNION ALL
            SELECT walk.kb, walk.id, walk.depth + 1, child.node
            FROM walk JOIN hit ON hit.id = walk.id AND hit.kb = walk.kb
            CROSS JOIN LATERAL (
                SELECT jsonb_path_query_first(
                    walk.node, '$.children[*] ? (@.node_id == $id)',
                    jsonb_build_object('id', hit.node_path[walk.depth + 1])
                ) AS node
            ) child
            WHERE walk.depth < cardinality(hit.node_path) AND child.node IS NOT NULL
        )
        SELECT kb, id, depth, node - 'children' - 'text' AS node,
               left(node->>'text', :cap) AS text, length(node->>'text') > :cap AS truncated
        FROM walk
        """
    )
    values = {**_key_values(project_id, keys), "cap": MAX_PARENT_TEXT}
    rows = await session.execute(statement, values)
    paths: dict[ChunkKey, list[dict[str, Any]]] = {}
    for kb, chunk_id, _depth, node, node_text, truncated in sorted(
        rows.all(), key=_by_path_position
    ):
        paths.setdefault((kb, chunk_id), []).append(
            {**node, "text": node_text or "", "truncated": bool(truncated)}
        )
    return paths


async def neighbours(
    session: AsyncSession, project_id: uuid.UUID, keys: Sequence[ChunkKey]
) -> dict[ChunkKey, dict[int, tuple[uuid.UUID, int, str]]]:
    """For each chunk, the chunks just before (-1) and after (+1) it in its document."""
    if not keys:
        return {}
    statement = text(
        f"""
        SELECT c.knowledge_base_id, c.id, n.chunk_index - c.chunk_index AS side, n.id,
               n.chunk_index, n.text
        FROM {KEYED_CHUNKS}
        JOIN chunks n ON n.knowledge_base_id = c.knowledge_base_id
             AND n.knowledge_base_id = ANY(CAST(:kbs AS uuid[]))
             AND n.project_id = c.project_id AND n.document_id = c.document_id
             AND n.chunk_index IN (c.chunk_index - 1, c.chunk_index + 1)
        """
    )
    found: dict[ChunkKey, dict[int, tuple[uuid.UUID, int, str]]] = {}
    for kb, chunk_id, side, other_id, index, other_text in (
        await session.execute(statement, _key_values(project_id, keys))
    ).all():
        found.setdefault((kb, chunk_id), {})[int(side)] = (other_id, index, other_text)
    return found


async def chunk_lineage(
    session: AsyncSession,
    project_id: uuid.UUID,
    knowledge_base_id: uuid.UUID,
    chunk_ids: Sequence[uuid.UUID],
    *,
    visible: ColumnElement[bool],
) -> list[tuple[ChunkKey, list[str]]]:
    """The node paths of these chunks of the knowledge base whose documents `visible` admits."""
    if not chunk_ids:
        return []
    rows = await session.execute(
        select(chunks.c.id, chunks.c.node_path)
        .select_from(chunks.join(documents, its_document()))
        .where(
            chunks.c.project_id == project_id,
            chunks.c.knowledge_base_id == knowledge_base_id,
            chunks.c.id.in_(list(chunk_ids)),
            visible,
        )
    )
    return [
        ((knowledge_base_id, chunk_id), list(node_path or [])) for chunk_id, node_path in rows.all()
    ]
