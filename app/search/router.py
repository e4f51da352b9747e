"""HTTP routes for search."""

from __future__ import annotations

import time

from fastapi import APIRouter, Request

from app.analytics.service import note_search
from app.audit.middleware import note_hits
from app.auth.callers import Scope
from app.auth.dependencies import VisibleDocumentsDep, require_scope
from app.chunks.dependencies import EmbedderFactoryDep
from app.db.dependencies import SessionDep, one_snapshot, replica_read
from app.kit.bodies import require_json_body
from app.kit.problems import problem_responses
from app.knowledge_bases.dependencies import KnowledgeBaseDep
from app.projects.dependencies import ProjectDep
from app.search import hits, service, text_statistics
from app.search.dependencies import RerankerDep
from app.search.schemas import (
    ChunkContextRequest,
    ChunkContexts,
    MultiSearchRequest,
    SearchRequest,
    SearchResponse,
    TextStatisticsRead,
)

router = APIRouter(
    tags=["search"],
    dependencies=[require_scope(Scope.READ)],
    responses=problem_responses(401, 403, 429),
)


@router.post(
    "/v1/knowledge-bases/{kb}/search",
    operation_id="search-knowledge_base",
    summary="Search one knowledge base: hybrid, vector or full text, with filters",
    responses=problem_responses(404, 422, 503),
    dependencies=[require_json_body],
)
@one_snapshot
@replica_read
async def search_knowledge_base(
    request: Request,
    data: SearchRequest,
    kb: KnowledgeBaseDep,
    session: SessionDep,
    visible: VisibleDocumentsDep,
    embedders: EmbedderFactoryDep,
    reranker: RerankerDep,
) -> SearchResponse:
    started = time.perf_counter()
    found = await service.search(
        session, [kb], data, embedders=embedders, reranker=reranker, visible=visible
    )
    note_hits(request, len(found.hits))
    note_search(request, project_id=kb.project_id, found=found, started=started)
    return found


@router.post(
    "/v1/knowledge-bases/{kb}/chunks/context",
    operation_id="search-chunk_contexts",
    summary="Tree context for chunks named by id (the hierarchy join of include=context)",
    description="For each chunk: its ancestors (titles, enrichment summaries, entities, "
    "keywords), the section around it with its text, and its neighbouring chunks, as a "
    "search hit's `context`. Up to 200 ids; those of chunks the caller cannot read, or of no "
    "chunk here, are listed in `missing`.",
    responses=problem_responses(404, 422),
    dependencies=[require_json_body],
)
@one_snapshot
@replica_read
async def chunk_contexts(
    data: ChunkContextRequest,
    kb: KnowledgeBaseDep,
    session: SessionDep,
    visible: VisibleDocumentsDep,
) -> ChunkContexts:
    return await hits.chunk_contexts(session, kb, data.chunk_ids, visible=visible)


@router.post(
    "/v1/search",
    operation_id="search-multi",
    summary="Search several knowledge bases that share one embedding model",
    responses=problem_responses(404, 422, 503),
    dependencies=[require_json_body],
)
@one_snapshot
@replica_read
async def search_knowledge_bases(
    request: Request,
    data: MultiSearchRequest,
    session: SessionDep,
    project: ProjectDep,
    visible: VisibleDocumentsDep,
    embedders: EmbedderFactoryDep,
    reranker: RerankerDep,
) -> SearchResponse:
    started = time.perf_counter()
    found = await service.search_many(
        session,
        project_id=project.id,
        data=data,
        embedders=embedders,
        reranker=reranker,
        visible=visible,
    )
    note_hits(request, len(found.hits))
    note_search(request, project_id=project.id, found=found, started=started)
    return found


@router.get(
    "/v1/knowledge-bases/{kb}/text-statistics",
    operation_id="search-text_statistics",
    summary="What full-text pruning knows of a knowledge base: budget, counts, common terms",
    description="The common terms are listed only to callers who can read every document of "
    "the knowledge base; for others `most_common` is empty and `most_common_withheld` says why "
    "(the counts still cover every chunk).",
    responses=problem_responses(404),
)
@replica_read
async def get_text_statistics(
    kb: KnowledgeBaseDep, session: SessionDep, visible: VisibleDocumentsDep
) -> TextStatisticsRead:
    return await text_statistics.describe(session, kb, visible=visible)
