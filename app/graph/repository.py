"""All SQL of the graph: merge with provenance, reads through readable documents, search.

Every read joins an entity or relation to at least one mention whose document the caller may
read (`app/auth/acl.py`'s condition, as SQL) inside the knowledge base; row-level security adds
the project and the key's knowledge-base limit. Entities and relations without a readable
mention do not exist for that caller: not listed, not found, not in a search, not an endpoint.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Document


@dataclass(frozen=True)
class Visibility:
    """Who reads: the knowledge base and the caller's principals (None reads every document)."""

    knowledge_base_id: uuid.UUID
    principals: frozenset[str] | None

    def clause(self, documents: str) -> tuple[str, dict[str, Any]]:
        """The access-list condition on `documents`.access, as SQL and its parameters: the
        condition of `app.auth.acl.visible_access_clause`, written for these text queries
        (tests/auth/test_graph_acl.py holds the two to the same answers)."""
        if self.principals is None:
            return "true", {}
        public = f"({documents}.access IS NULL OR jsonb_typeof({documents}.access) = 'null')"
        if not self.principals:
            return public, {}
        return (
            f"({public} OR ({documents}.access -> 'principals') "
            "?| CAST(:acl_principals AS text[]))",
            {"acl_principals": sorted(self.principals)},
        )


# `OFFSET 0` keeps each visibility check a per-row probe of the mentions' primary key. As a
# semi-join, the planner (which takes the tenant conditions for far more selective than they
# are) could start from a document's every mention and compare each with every candidate:
# 43 s for 20,000 trigram candidates in tests/graph/test_graph_views.py.
def _entity_visible(vis: Visibility, alias: str = "e") -> tuple[str, dict[str, Any]]:
    acl, params = vis.clause("vd")
    return (
        f"EXISTS (SELECT 1 FROM graph_entity_mentions vm JOIN documents vd ON vd.id = "
        f"vm.document_id WHERE vm.entity_id = {alias}.id AND {acl} OFFSET 0)",
        params,
    )


def _relation_visible(vis: Visibility, alias: str = "r") -> tuple[str, dict[str, Any]]:
    acl, params = vis.clause("rd")
    return (
        f"EXISTS (SELECT 1 FROM graph_relation_mentions rm JOIN documents rd ON rd.id = "
        f"rm.document_id WHERE rm.relation_id = {alias}.id AND {acl} OFFSET 0)",
        params,
    )


def _summary(vis: Visibility, alias: str = "e") -> tuple[str, dict[str, Any]]:
    """The entity's summary as the caller may read it: the first readable mention's text."""
    acl, params = vis.clause("sd")
    return (
        f"(SELECT sm.description FROM graph_entity_mentions sm JOIN documents sd ON sd.id = "
        f"sm.document_id WHERE sm.entity_id = {alias}.id AND {acl} "
        "ORDER BY sd.created_at, sm.chunk_id LIMIT 1)",
        params,
    )


ENTITY_COLUMNS = "e.id, e.name, e.type, e.key, e.updated_at"
RELATION_COLUMNS = "r.id, r.source_id, r.target_id, r.type, r.fact, r.updated_at"


async def chunks_of(session: AsyncSession, document: Document) -> list[tuple[uuid.UUID, str]]:
    rows = await session.execute(
        text(
            "SELECT id, text FROM chunks WHERE knowledge_base_id = :kb AND document_id = :d "
            "ORDER BY chunk_index"
        ),
        {"kb": document.knowledge_base_id, "d": document.id},
    )
    return [(row.id, row.text) for row in rows]


async def upsert_entities(
    session: AsyncSession,
    *,
    project_id: uuid.UUID,
    knowledge_base_id: uuid.UUID,
    entities: Sequence[tuple[str, str, str, list[float] | None]],
) -> dict[str, uuid.UUID]:
    """(key, name, type, name vector) rows, merged by key; the id of every key."""
    if not entities:
        return {}
    rows = await session.execute(
        text(
            "INSERT INTO graph_entities (id, project_id, knowledge_base_id, key, name, type, "
            "name_embedding) SELECT gen_random_uuid(), :p, :kb, k, n, t, "
            "CASE WHEN v IS NULL THEN NULL ELSE CAST(v AS vector) END "
            "FROM unnest(CAST(:keys AS text[]), CAST(:names AS text[]), CAST(:types AS text[]), "
            "CAST(:vectors AS text[])) AS u(k, n, t, v) "
            "ON CONFLICT (knowledge_base_id, key, project_id) DO UPDATE SET updated_at = now(), "
            "name_embedding = coalesce(graph_entities.name_embedding, "
            "excluded.name_embedding) RETURNING key, id"
        ),
        {
            "p": project_id,
            "kb": knowledge_base_id,
            "keys": [e[0] for e in entities],
            "names": [e[1] for e in entities],
            "types": [e[2] for e in entities],
            "vectors": [_vector_text(e[3]) for e in entities],
        },
    )
    return {row.key: row.id for row in rows}


def _vector_text(vector: list[float] | None) -> str | None:
    return None if vector is None else "[" + ",".join(repr(float(x)) for x in vector) + "]"


async def upsert_relations(
    session: AsyncSession,
    *,
    project_id: uuid.UUID,
    knowledge_base_id: uuid.UUID,
    relations: Sequence[tuple[uuid.UUID, uuid.UUID, str, str, list[float] | None]],
) -> dict[tuple[uuid.UUID, uuid.UUID, str, str], uuid.UUID]:
    """(source, target, type, fact, fact vector) rows, merged; the id of every one."""
    if not relations:
        return {}
    rows = await session.execute(
        text(
            "INSERT INTO graph_relations (id, project_id, knowledge_base_id, source_id, "
            "target_id, type, fact, fact_embedding) SELECT gen_random_uuid(), :p, :kb, s, t, "
            "ty, f, CASE WHEN v IS NULL THEN NULL ELSE CAST(v AS vector) END "
            "FROM unnest(CAST(:sources AS uuid[]), CAST(:targets AS uuid[]), "
            "CAST(:types AS text[]), CAST(:facts AS text[]), CAST(:vectors AS text[])) "
            "AS u(s, t, ty, f, v) "
            "ON CONFLICT (knowledge_base_id, source_id, target_id, type, md5(fact), project_id) "
            "DO UPDATE SET updated_at = now(), fact_embedding = "
            "coalesce(graph_relations.fact_embedding, excluded.fact_embedding) "
            "RETURNING id, source_id, target_id, type, fact"
        ),
        {
            "p": project_id,
            "kb": knowledge_base_id,
            "sources": [r[0] for r in relations],
            "targets": [r[1] for r in relations],
            "types": [r[2] for r in relations],
            "facts": [r[3] for r in relations],
            "vectors": [_vector_text(r[4]) for r in relations],
        },
    )
    return {(row.source_id, row.target_id, row.type, row.fact): row.id for row in rows}


async def write_mentions(
    session: AsyncSession,
    *,
    project_id: uuid.UUID,
    knowledge_base_id: uuid.UUID,
    document_id: uuid.UUID,
    extraction: uuid.UUID,
    entity_mentions: Sequence[tuple[uuid.UUID, uuid.UUID, str, str]],
    relation_mentions: Sequence[tuple[uuid.UUID, uuid.UUID]],
) -> None:
    """This extraction's mentions of the document, then the document's older ones removed:
    entities and relations it alone held go with them (the prune triggers), the others stay,
    with their ids, whatever the document still says of them."""
    common = {"p": project_id, "kb": knowledge_base_id, "d": document_id, "x": extraction}
    if entity_mentions:
        await session.execute(
            text(
                "INSERT INTO graph_entity_mentions (entity_id, chunk_id, document_id, project_id, "
                "knowledge_base_id, surface, description, extraction) "
                "SELECT e, c, :d, :p, :kb, s, ds, :x FROM unnest(CAST(:entities AS uuid[]), "
                "CAST(:chunks AS uuid[]), CAST(:surfaces AS text[]), "
                "CAST(:descriptions AS text[])) AS u(e, c, s, ds) "
                "ON CONFLICT (entity_id, chunk_id, project_id) DO UPDATE SET "
                "extraction = excluded.extraction, "
                "surface = excluded.surface, description = excluded.description, "
                "document_id = excluded.document_id"
            ),
            {
                **common,
                "entities": [m[0] for m in entity_mentions],
                "chunks": [m[1] for m in entity_mentions],
                "surfaces": [m[2] for m in entity_mentions],
                "descriptions": [m[3] for m in entity_mentions],
            },
        )
    if relation_mentions:
        await session.execute(
            text(
                "INSERT INTO graph_relation_mentions (relation_id, chunk_id, document_id, "
                "project_id, knowledge_base_id, extraction) SELECT r, c, :d, :p, :kb, :x "
                "FROM unnest(CAST(:relations AS uuid[]), CAST(:chunks AS uuid[])) AS u(r, c) "
                "ON CONFLICT (relation_id, chunk_id, project_id) DO UPDATE SET "
                "extraction = excluded.extraction, document_id = excluded.document_id"
            ),
            {
                **common,
                "relations": [m[0] for m in relation_mentions],
                "chunks": [m[1] for m in relation_mentions],
            },
        )
    for table in ("graph_relation_mentions", "graph_entity_mentions"):
        await session.execute(
            text(f"DELETE FROM {table} WHERE document_id = :d AND extraction <> :x"),
            {"d": document_id, "x": extraction},
        )


async def drop_knowledge_base_graph(session: AsyncSession, knowledge_base_id: uuid.UUID) -> None:
    """Everything the knowledge base's graph holds (its graph was turned off)."""
    await session.execute(
        text("DELETE FROM graph_entities WHERE knowledge_base_id = :kb"), {"kb": knowledge_base_id}
    )


async def list_entities(
    session: AsyncSession,
    vis: Visibility,
    *,
    q: str | None,
    type_: str | None,
    after: tuple[str, uuid.UUID] | None,
    limit: int,
) -> list[Any]:
    visible, params = _entity_visible(vis)
    summary, summary_params = _summary(vis)
    where = ["e.knowledge_base_id = :kb", visible]
    params |= summary_params | {"kb": vis.knowledge_base_id, "limit": limit}
    if q:
        where.append("(e.name ILIKE :q ESCAPE '\\' OR e.key ILIKE :q ESCAPE '\\')")
        params["q"] = f"%{like_escape(q)}%"
    if type_:
        where.append("e.type = :type")
        params["type"] = type_
    if after is not None:
        where.append("(e.key, e.id) > (:after_key, :after_id)")
        params |= {"after_key": after[0], "after_id": after[1]}
    rows = await session.execute(
        text(
            f"SELECT {ENTITY_COLUMNS}, {summary} AS summary FROM graph_entities e "
            f"WHERE {' AND '.join(where)} ORDER BY e.key, e.id LIMIT :limit"
        ),
        params,
    )
    return list(rows)


async def count_entities(
    session: AsyncSession, vis: Visibility, *, q: str | None, type_: str | None
) -> int:
    visible, params = _entity_visible(vis)
    where = ["e.knowledge_base_id = :kb", visible]
    params["kb"] = vis.knowledge_base_id
    if q:
        where.append("(e.name ILIKE :q ESCAPE '\\' OR e.key ILIKE :q ESCAPE '\\')")
        params["q"] = f"%{like_escape(q)}%"
    if type_:
        where.append("e.type = :type")
        params["type"] = type_
    total = await session.scalar(
        text(f"SELECT count(*) FROM graph_entities e WHERE {' AND '.join(where)}"), params
    )
    return int(total or 0)


def like_escape(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def entities_by_id(
    session: AsyncSession, vis: Visibility, ids: Sequence[uuid.UUID]
) -> list[Any]:
    if not ids:
        return []
    visible, params = _entity_visible(vis)
    summary, summary_params = _summary(vis)
    rows = await session.execute(
        text(
            f"SELECT {ENTITY_COLUMNS}, {summary} AS summary FROM graph_entities e "
            f"WHERE e.knowledge_base_id = :kb AND e.id = ANY(:ids) AND {visible}"
        ),
        params | summary_params | {"kb": vis.knowledge_base_id, "ids": list(ids)},
    )
    return list(rows)


async def provenance(
    session: AsyncSession, vis: Visibility, entity_id: uuid.UUID, *, limit: int
) -> list[Any]:
    acl, params = vis.clause("d")
    rows = await session.execute(
        text(
            "SELECT m.document_id, m.chunk_id, m.surface, m.description FROM "
            "graph_entity_mentions m JOIN documents d ON d.id = m.document_id "
            f"WHERE m.entity_id = :id AND m.knowledge_base_id = :kb AND {acl} "
            "ORDER BY d.created_at, m.chunk_id LIMIT :limit"
        ),
        params | {"id": entity_id, "kb": vis.knowledge_base_id, "limit": limit},
    )
    return list(rows)


async def relations(
    session: AsyncSession,
    vis: Visibility,
    *,
    entity_ids: Sequence[uuid.UUID] | None = None,
    exclude: Sequence[uuid.UUID] = (),
    after: tuple[str, uuid.UUID] | None = None,
    limit: int,
) -> list[Any]:
    """Readable relations, those touching `entity_ids` when given, ordered by time and id."""
    visible, params = _relation_visible(vis)
    where = ["r.knowledge_base_id = :kb", visible]
    params |= {"kb": vis.knowledge_base_id, "limit": limit}
    if entity_ids is not None:
        where.append("(r.source_id = ANY(:ents) OR r.target_id = ANY(:ents))")
        params["ents"] = list(entity_ids)
    if exclude:
        where.append("NOT (r.id = ANY(:exclude))")
        params["exclude"] = list(exclude)
    if after is not None:
        where.append("(r.id) > (:after_id)")
        params["after_id"] = after[1]
    rows = await session.execute(
        text(
            f"SELECT {RELATION_COLUMNS} FROM graph_relations r WHERE {' AND '.join(where)} "
            "ORDER BY r.id LIMIT :limit"
        ),
        params,
    )
    return list(rows)


async def relation_provenance(
    session: AsyncSession, vis: Visibility, relation_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, list[tuple[uuid.UUID, uuid.UUID]]]:
    if not relation_ids:
        return {}
    acl, params = vis.clause("d")
    rows = await session.execute(
        text(
            "SELECT m.relation_id, m.document_id, m.chunk_id FROM graph_relation_mentions m "
            f"JOIN documents d ON d.id = m.document_id WHERE m.relation_id = ANY(:ids) AND {acl} "
            "ORDER BY m.relation_id, d.created_at, m.chunk_id"
        ),
        params | {"ids": list(relation_ids)},
    )
    found: dict[uuid.UUID, list[tuple[uuid.UUID, uuid.UUID]]] = {}
    for row in rows:
        found.setdefault(row.relation_id, []).append((row.document_id, row.chunk_id))
    return found
