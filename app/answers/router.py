"""HTTP routes for answers: one JSON body, or the flow's events as text/event-stream."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from sqlalchemy import ColumnElement

from app.answers import service
from app.answers.flow import DoneEvent, FlowDependencies, run_flow
from app.answers.retrieval import GraphContextProvider
from app.answers.schemas import AnswerOptions, AnswerRequest, AnswerResponse, MultiAnswerRequest
from app.answers.sse import EVENT_SCHEMA, stream_events
from app.audit.middleware import note_details, note_hits
from app.auth.callers import Caller, Scope
from app.auth.dependencies import CallerDep, VisibleDocumentsDep, require_scope
from app.chunks.dependencies import EmbedderFactoryDep
from app.config import Settings
from app.db.dependencies import DatabaseDep, replica_read
from app.db.engine import Database
from app.kit.bodies import require_json_body
from app.kit.problems import problem_responses
from app.knowledge_bases.dependencies import KnowledgeBaseRef
from app.llm.dependencies import ChatClientDep
from app.search.dependencies import RerankerDep

router = APIRouter(
    tags=["answers"],
    dependencies=[require_scope(Scope.READ)],
    responses=problem_responses(401, 403, 429),
)

STREAM_DESCRIPTION = (
    "With `stream: true`, `text/event-stream`: `action` (each stage as it ends), `sources`, "
    "`delta` (answer text), `citation` (a source as first cited), then `done` (the JSON "
    "answer) or `error` (a problem+json object). Comment lines are keep-alives."
)
RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The answer (JSON), or its events (`stream: true`).",
        "content": {"text/event-stream": {"schema": EVENT_SCHEMA}},
    },
    **problem_responses(404, 422, 503),
}


def get_graph_provider(request: Request) -> GraphContextProvider | None:
    """The knowledge graph's retrieval seam (`app.state.graph_context_provider`)."""
    provider: GraphContextProvider | None = getattr(
        request.app.state, "graph_context_provider", None
    )
    return provider


def flow_dependencies(
    database: DatabaseDep,
    embedders: EmbedderFactoryDep,
    reranker: RerankerDep,
    llm: ChatClientDep,
    graph: Annotated[GraphContextProvider | None, Depends(get_graph_provider)],
) -> FlowDependencies:
    return FlowDependencies(
        database=database, embedders=embedders, reranker=reranker, llm=llm, graph=graph
    )


FlowDependenciesDep = Annotated[FlowDependencies, Depends(flow_dependencies)]


async def _answer(
    request: Request,
    options: AnswerOptions,
    *,
    refs: Sequence[str],
    caller: Caller,
    visible: ColumnElement[bool],
    deps: FlowDependencies,
) -> Response:
    database: Database = deps.database
    settings: Settings = request.app.state.settings
    scope = await service.prepare(database, caller, options, refs=refs, visible=visible, deps=deps)

    def record(done: DoneEvent) -> None:
        note_hits(request, len(done.response.sources))
        note_details(
            request,
            service.audit_details(options, done.response, with_text=settings.answer_audit_text),
        )

    events = run_flow(options, scope, deps)
    if options.stream:
        return StreamingResponse(
            stream_events(
                events,
                instance=request.url.path,
                keepalive_s=settings.answer_keepalive_s,
                on_done=record,
            ),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
    async with contextlib.aclosing(events):
        async for event in events:
            if isinstance(event, DoneEvent):
                record(event)
                return JSONResponse(event.response.model_dump(mode="json"))
    raise AssertionError("the answer flow ended without a done event")


@router.post(
    "/v1/knowledge-bases/{kb}/answer",
    operation_id="answers-knowledge_base",
    summary="Answer a question from one knowledge base, grounded and cited",
    description=STREAM_DESCRIPTION,
    response_model=AnswerResponse,
    responses=RESPONSES,
    dependencies=[require_json_body],
)
@replica_read
async def answer_knowledge_base(
    request: Request,
    data: AnswerRequest,
    kb: KnowledgeBaseRef,
    caller: CallerDep,
    visible: VisibleDocumentsDep,
    deps: FlowDependenciesDep,
) -> Response:
    return await _answer(request, data, refs=[kb], caller=caller, visible=visible, deps=deps)


@router.post(
    "/v1/answer",
    operation_id="answers-multi",
    summary="Answer a question from several knowledge bases that share one embedding model",
    description=STREAM_DESCRIPTION,
    response_model=AnswerResponse,
    responses=RESPONSES,
    dependencies=[require_json_body],
)
@replica_read
async def answer_knowledge_bases(
    request: Request,
    data: MultiAnswerRequest,
    caller: CallerDep,
    visible: VisibleDocumentsDep,
    deps: FlowDependenciesDep,
) -> Response:
    return await _answer(
        request, data, refs=data.knowledge_bases, caller=caller, visible=visible, deps=deps
    )
