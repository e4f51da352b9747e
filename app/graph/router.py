"""HTTP routes of the knowledge graph: entities, relations, graph search, progress."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from app.auth.callers import Scope
from app.auth.dependencies import CallerDep, require_scope
from app.chunks.dependencies import EmbedderFactoryDep
from app.db.dependencies import SessionDep, replica_read
from app.graph import service
from app.graph.schemas import (
    EntityDetail,
    EntityRead,
    GraphSearchRequest,
    GraphSearchResult,
    GraphStatus,
    RelationRead,
)
from app.kit.bodies import require_json_body
from app.kit.pagination import Page, PageParams, page_params
from app.kit.problems import problem_responses
from app.kit.strings import StoredText
from app.knowledge_bases.dependencies import KnowledgeBaseDep

router = APIRouter(
    prefix="/v1/knowledge-bases/{kb}/graph",
    tags=["graph"],
    # Every route reads, graph search included (a POST only for its body).
    dependencies=[require_scope(Scope.READ)],
    responses=problem_responses(401, 403, 404, 429),
)


@router.get(
    "/entities",
    operation_id="graph-list_entities",
    summary="Entities of the knowledge base you may read, by name (cursor pages)",
    responses=problem_responses(422),
)
@replica_read
async def list_entities(
    kb: KnowledgeBaseDep,
    session: SessionDep,
    caller: CallerDep,
    page: Annotated[PageParams, Depends(page_params)],
    q: Annotated[StoredText | None, Query(max_length=200, description="Part of the name.")] = None,
    type: Annotated[StoredText | None, Query(max_length=40, description="e.g. `PERSON`.")] = None,
) -> Page[EntityRead]:
    vis = service.visibility(kb, caller.principals)
    return await service.list_entities(session, vis, q=q, type_=type, page=page)


@router.get(
    "/entities/{entity_id}",
    operation_id="graph-get_entity",
    summary="One entity with its relations and provenance (the chunks that mention it)",
)
@replica_read
async def get_entity(
    kb: KnowledgeBaseDep, entity_id: uuid.UUID, session: SessionDep, caller: CallerDep
) -> EntityDetail:
    return await service.get_entity(session, service.visibility(kb, caller.principals), entity_id)


@router.get(
    "/relations",
    operation_id="graph-list_relations",
    summary="Relations you may read, those of one entity with `entity`",
    responses=problem_responses(422),
)
@replica_read
async def list_relations(
    kb: KnowledgeBaseDep,
    session: SessionDep,
    caller: CallerDep,
    page: Annotated[PageParams, Depends(page_params)],
    entity: Annotated[uuid.UUID | None, Query(description="An entity id.")] = None,
) -> Page[RelationRead]:
    vis = service.visibility(kb, caller.principals)
    return await service.list_relations(session, vis, entity=entity, page=page)


@router.post(
    "/search",
    operation_id="graph-search",
    summary="Graph retrieval: nodes, edges, scores, definitions, facts and a Mermaid diagram",
    responses=problem_responses(422),
    dependencies=[require_json_body],
)
@replica_read
async def search(
    kb: KnowledgeBaseDep,
    data: GraphSearchRequest,
    session: SessionDep,
    caller: CallerDep,
    embedders: EmbedderFactoryDep,
) -> GraphSearchResult:
    vis = service.visibility(kb, caller.principals)
    return (await service.search(session, kb, vis, data, embedders=embedders)).result


@router.get(
    "/status",
    operation_id="graph-status",
    summary="Enrichment and graph settings, the graph jobs by status, entity and relation counts",
)
@replica_read
async def status(kb: KnowledgeBaseDep, session: SessionDep) -> GraphStatus:
    return await service.status(session, kb)
