"""`GET /metrics`: the Prometheus exposition, for keys with the `admin` scope."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.auth.callers import Scope
from app.auth.dependencies import require_scope
from app.kit.problems import problem_responses
from app.observability import metrics, state

router = APIRouter(tags=["operations"])


@router.get(
    "/metrics",
    operation_id="operations-metrics",
    summary="Prometheus metrics of every process of this server (admin scope)",
    description="The Prometheus text format. Scrape it with an admin key as a bearer token "
    "(docs/operations.md lists the metrics).",
    dependencies=[require_scope(Scope.ADMIN)],
    responses={
        200: {"content": {"text/plain": {"schema": {"type": "string"}}}},
        **problem_responses(401, 403, 429, 503),
    },
    response_class=Response,
)
async def get_metrics(request: Request) -> Response:
    await state.refresh(request.app.state.database)
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)
