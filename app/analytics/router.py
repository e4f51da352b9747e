"""HTTP routes for search analytics."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request

from app.analytics import service
from app.analytics.schemas import SearchAnalytics
from app.auth.callers import Scope
from app.auth.dependencies import require_scope
from app.db.dependencies import SessionDep, replica_read
from app.kit.problems import problem_responses
from app.knowledge_bases.dependencies import KnowledgeBaseDep

router = APIRouter(
    tags=["analytics"],
    dependencies=[require_scope(Scope.ADMIN)],
    responses=problem_responses(401, 403, 429),
)


@router.get(
    "/v1/knowledge-bases/{kb}/analytics",
    operation_id="analytics-get",
    summary="What a knowledge base was asked: volume, latency, zero-hit and weak queries",
    description="Admin scope: the query texts are other callers' words. Texts are empty lists "
    "while ARBOR_ANALYTICS_TEXT is off. Default window: the last 7 days.",
    responses=problem_responses(404, 422),
    response_model_by_alias=True,
)
@replica_read
async def get_analytics(
    request: Request,
    kb: KnowledgeBaseDep,
    session: SessionDep,
    from_: Annotated[datetime | None, Query(alias="from")] = None,
    to: Annotated[datetime | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    low_score: Annotated[float, Query(ge=0, le=1)] = 0.5,
) -> SearchAnalytics:
    return await service.describe(
        session,
        kb,
        start=from_,
        end=to,
        limit=limit,
        low_score=low_score,
        text_stored=request.app.state.settings.analytics_text,
    )
