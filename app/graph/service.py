"""Graph reads and search for a caller, and the seam the answers flow uses."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.chunks.embedding import EmbedderFactory
from app.db.tenancy import read_through_tenant_views
from app.graph import context, repository, retrieval
from app.graph.repository import Visibility
from app.graph.schemas import (
    EntityDetail,
    EntityRead,
    GraphEdge,
    GraphNode,
    GraphSearchRequest,
    GraphSearchResult,
    GraphStatus,
    Mention,
    RelationRead,
)
from app.graph.settings import enrichment_of, graph_of
from app.graph.stage import JOB_KIND
from app.kit.errors import NotFound
from app.kit.pagination import Page, PageParams, decode_cursor, encode_cursor
from app.models import KnowledgeBase
from app.search.query_vectors import query_vector

MAX_DETAIL_ITEMS = 100


def visibility(kb: KnowledgeBase, principals: frozenset[str] | None) -> Visibility:
    return Visibility(kb.id, principals)


def _entity(row: object) -> EntityRead:
    return EntityRead.model_validate(row, from_attributes=True)


async def list_entities(
    session: AsyncSession,
    vis: Visibility,
    *,
    q: str | None,
    type_: str | None,
    page: PageParams,
) -> Page[EntityRead]:
    after = None
    if page.cursor:
        key, id_ = decode_cursor(page.cursor, arity=2)
        try:
            after = (str(key), uuid.UUID(str(id_)))
        except ValueError:
            after = None
    await read_through_tenant_views(session)  # `q` is an ILIKE its trigram index can serve
    rows = await repository.list_entities(
        session, vis, q=q, type_=type_, after=after, limit=page.limit + 1
    )
    total = await repository.count_entities(session, vis, q=q, type_=type_)
    items = [_entity(row) for row in rows[: page.limit]]
    cursor = (
        encode_cursor([items[-1].key, str(items[-1].id)])
        if len(rows) > page.limit and items
        else None
    )
    return Page(items=items, total=total, limit=page.limit, next_cursor=cursor)


async def _relation_reads(
    session: AsyncSession, vis: Visibility, rows: list[Any]
) -> list[RelationRead]:
    ends = {r.source_id for r in rows} | {r.target_id for r in rows}
    names = {e.id: e.name for e in await repository.entities_by_id(session, vis, sorted(ends))}
    sources = await repository.relation_provenance(session, vis, [r.id for r in rows])
    return [
        RelationRead(
            id=r.id,
            source_id=r.source_id,
            source_name=names.get(r.source_id, ""),
            target_id=r.target_id,
            target_name=names.get(r.target_id, ""),
            type=r.type,
            fact=r.fact,
            chunks=[chunk for _doc, chunk in sources.get(r.id, [])],
        )
        for r in rows
        if r.source_id in names and r.target_id in names
    ]


async def get_entity(session: AsyncSession, vis: Visibility, entity_id: uuid.UUID) -> EntityDetail:
    rows = await repository.entities_by_id(session, vis, [entity_id])
    if not rows:
        raise NotFound(f"No entity {entity_id}.")
    mentions = await repository.provenance(session, vis, entity_id, limit=MAX_DETAIL_ITEMS)
    relations = await repository.relations(
        session, vis, entity_ids=[entity_id], limit=MAX_DETAIL_ITEMS
    )
    return EntityDetail(
        **_entity(rows[0]).model_dump(),
        mentions=[Mention.model_validate(m, from_attributes=True) for m in mentions],
        relations=await _relation_reads(session, vis, list(relations)),
    )


async def list_relations(
    session: AsyncSession, vis: Visibility, *, entity: uuid.UUID | None, page: PageParams
) -> Page[RelationRead]:
    after = None
    if page.cursor:
        (id_,) = decode_cursor(page.cursor, arity=1)
        try:
            after = ("", uuid.UUID(str(id_)))
        except ValueError:
            after = None
    rows = await repository.relations(
        session,
        vis,
        entity_ids=[entity] if entity is not None else None,
        after=after,
        limit=page.limit + 1,
    )
    items = await _relation_reads(session, vis, list(rows[: page.limit]))
    cursor = encode_cursor([str(rows[page.limit - 1].id)]) if len(rows) > page.limit else None
    return Page(items=items, total=len(items), limit=page.limit, next_cursor=cursor)


@dataclass
class GraphAnswer:
    """What the answers flow takes from the graph: the result and its context text."""

    result: GraphSearchResult
    context: context.GraphContext


async def search(
    session: AsyncSession,
    kb: KnowledgeBase,
    vis: Visibility,
    data: GraphSearchRequest,
    *,
    embedders: EmbedderFactory,
) -> GraphAnswer:
    async def vector_of() -> list[float] | None:
        vector, _degraded = await query_vector(embedders, kb, data.query, required=False)
        return vector

    if data.mode == "quick":
        found = await retrieval.quick(
            session,
            vis,
            data.query,
            vector_of=vector_of,
            search_limit=data.search_limit,
            max_growth_levels=data.max_growth_levels,
        )
    else:
        found = await retrieval.standard(session, vis, data.query, vector_of=vector_of)
    nodes, edges = found.ranked_nodes(), found.ranked_edges()
    built = context.build(nodes, edges)
    found.actions.append({"step": "build_context", "nodes": len(nodes), "edges": len(edges)})
    result = GraphSearchResult(
        mode=data.mode,
        entities=found.entities,
        nodes=[
            GraphNode(id=n.id, name=n.name, type=n.type, summary=n.summary, score=n.score)
            for n in nodes
        ],
        edges=[
            GraphEdge(
                id=e.id,
                source_id=e.source_id,
                target_id=e.target_id,
                type=e.type,
                fact=e.fact,
                score=e.score,
            )
            for e in edges
        ],
        definitions=built.definitions,
        facts=built.facts,
        mermaid=built.mermaid,
        actions=found.actions,
    )
    return GraphAnswer(result, built)


async def graph_context_for(
    session: AsyncSession,
    kb: KnowledgeBase,
    principals: frozenset[str] | None,
    query: str,
    *,
    embedders: EmbedderFactory,
    mode: str = "standard",
) -> GraphAnswer | None:
    """The answers flow's seam: definitions, facts and Mermaid for a query as this caller may
    see them, or None when the knowledge base has no graph."""
    if not graph_of(kb.graph).enabled:
        return None
    data = GraphSearchRequest(query=query, mode="quick" if mode == "quick" else "standard")
    return await search(session, kb, visibility(kb, principals), data, embedders=embedders)


async def status(session: AsyncSession, kb: KnowledgeBase) -> GraphStatus:
    jobs = {
        row.status: int(row.n)
        for row in await session.execute(
            text(
                "SELECT status, count(*) AS n FROM jobs WHERE knowledge_base_id = :kb "
                "AND kind = :kind GROUP BY status"
            ),
            {"kb": kb.id, "kind": JOB_KIND},
        )
    }
    counts = (
        await session.execute(
            text(
                "SELECT (SELECT count(*) FROM graph_entities WHERE knowledge_base_id = :kb) AS e, "
                "(SELECT count(*) FROM graph_relations WHERE knowledge_base_id = :kb) AS r"
            ),
            {"kb": kb.id},
        )
    ).one()
    return GraphStatus(
        enrichment=enrichment_of(kb.enrichment),
        graph=graph_of(kb.graph),
        jobs={s: jobs.get(s, 0) for s in ("queued", "running", "succeeded", "failed", "cancelled")},
        entities=int(counts.e),
        relations=int(counts.r),
    )
