"""HTTP routes for knowledge sources: the registry, syncs and their runs, health, records."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Body, Depends, Query, Request, Response, status
from fastapi.responses import JSONResponse

from app.auth.callers import Scope
from app.auth.dependencies import CallerDep, require_scope, require_scope_by_method
from app.db.dependencies import DatabaseDep, SessionDep, replica_read
from app.kit.bodies import require_json, require_json_body
from app.kit.errors import NotFound
from app.kit.pagination import Page, PageParams, decode_time_cursor, encode_time_cursor, page_params
from app.kit.problems import problem_responses
from app.knowledge_bases.dependencies import KnowledgeBaseDep
from app.models import SourceRun
from app.sources import records, repository, service
from app.sources.dependencies import SourceDep
from app.sources.schemas import (
    RecordsPush,
    RecordsResult,
    SourceCreate,
    SourceHealthRead,
    SourceRead,
    SourceRunRead,
    SourceUpdate,
    SyncPlanRead,
    SyncRequest,
)

router = APIRouter(
    prefix="/v1/knowledge-bases/{kb}/sources",
    tags=["sources"],
    dependencies=[require_scope_by_method],
    responses=problem_responses(401, 403, 429),
)
# Sources read the server's folders and fetch URLs: their registry is the admins'.
ADMIN = [require_scope(Scope.ADMIN)]


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="sources-create",
    summary="Register a knowledge source: a folder, web pages, or pushed records",
    responses=problem_responses(404, 409, 422),
    dependencies=[*ADMIN, require_json_body],
)
async def create_source(
    data: SourceCreate,
    kb: KnowledgeBaseDep,
    session: SessionDep,
    request: Request,
    response: Response,
) -> SourceRead:
    source = await service.create(session, kb, data, settings=request.app.state.settings)
    response.headers["Location"] = f"{request.url.path}/{source.id}"
    return service.to_read(source)


@router.get(
    "",
    operation_id="sources-list",
    summary="List the knowledge base's sources",
    responses=problem_responses(404, 422),
)
@replica_read
async def list_sources(
    kb: KnowledgeBaseDep,
    session: SessionDep,
    page: Annotated[PageParams, Depends(page_params)],
) -> Page[SourceRead]:
    return await service.list_page(session, kb, limit=page.limit, cursor=page.cursor)


@router.get(
    "/{source}",
    operation_id="sources-get",
    summary="Get a source",
    responses=problem_responses(404, 422),
)
@replica_read
async def get_source(source: SourceDep) -> SourceRead:
    return service.to_read(source)


@router.patch(
    "/{source}",
    operation_id="sources-update",
    summary="Change a source; changes apply from its next sync",
    responses=problem_responses(404, 409, 422),
    dependencies=[*ADMIN, require_json_body],
)
async def update_source(
    data: SourceUpdate, source: SourceDep, session: SessionDep, request: Request
) -> SourceRead:
    updated = await service.update(session, source, data, settings=request.app.state.settings)
    return service.to_read(updated)


@router.delete(
    "/{source}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="sources-delete",
    summary="Delete a source and its documents (or keep them, detached)",
    responses=problem_responses(404, 422),
    dependencies=ADMIN,
)
async def delete_source(
    kb: KnowledgeBaseDep,
    source: SourceDep,
    session: SessionDep,
    keep_documents: Annotated[
        bool, Query(description="Keep the documents as plain uploads (no source).")
    ] = False,
) -> Response:
    await service.delete(session, kb, source, keep_documents=keep_documents)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


async def _json_if_any(request: Request) -> None:
    # The body is optional here; one that is sent must be JSON (415, not a 422 about its shape).
    sent = request.headers.get("content-length", "0") not in ("", "0")
    if sent or "transfer-encoding" in request.headers:
        require_json(request, '{"dry_run": true}, or no body')


@router.post(
    "/{source}/sync",
    operation_id="sources-sync",
    summary="Sync the source now, as a background run; `dry_run` answers what it would do",
    description="A dry run answers 200 with the counts and every item's action, and changes "
    "nothing. Otherwise 202 with the queued run (follow it at `.../runs/{run_id}`); 409 while "
    "another run of the source is under way.",
    responses={
        200: {"model": SyncPlanRead, "description": "A dry run's answer"},
        202: {"model": SourceRunRead, "description": "Queued"},
        **problem_responses(404, 409, 415, 422),
    },
    dependencies=[Depends(_json_if_any)],
)
async def sync_source(
    source: SourceDep,
    database: DatabaseDep,
    request: Request,
    data: Annotated[SyncRequest | None, Body()] = None,
) -> JSONResponse:
    settings = request.app.state.settings
    if data is not None and data.dry_run:
        plan = await service.dry_run(database, settings, source)
        return JSONResponse(plan.model_dump(mode="json"), status_code=status.HTTP_200_OK)
    async with database.transaction(project_id=source.project_id) as session:
        run = await service.start_run(session, source, settings=settings)
        body = service.run_to_read(run).model_dump(mode="json")
    request.app.state.poke_workers()
    return JSONResponse(
        body,
        status_code=status.HTTP_202_ACCEPTED,
        headers={"Location": f"{request.url.path.rsplit('/', 1)[0]}/runs/{run.id}"},
    )


@router.get(
    "/{source}/runs",
    operation_id="sources-runs",
    summary="The source's sync runs, newest first: counts, duration, errors",
    responses=problem_responses(404, 422),
)
@replica_read
async def list_runs(
    source: SourceDep,
    session: SessionDep,
    page: Annotated[PageParams, Depends(page_params)],
) -> Page[SourceRunRead]:
    rows, total = await repository.runs_page(
        session, source.id, before=decode_time_cursor(page.cursor), limit=page.limit + 1
    )
    next_cursor = None
    if len(rows) > page.limit:
        last = rows[page.limit - 1]
        next_cursor = encode_time_cursor(last.created_at, last.id)
    return Page(
        items=[service.run_to_read(run) for run in rows[: page.limit]],
        total=total,
        limit=page.limit,
        next_cursor=next_cursor,
    )


@router.get(
    "/{source}/runs/{run_id}",
    operation_id="sources-run",
    summary="One sync run",
    responses=problem_responses(404, 422),
)
@replica_read
async def get_run(source: SourceDep, run_id: uuid.UUID, session: SessionDep) -> SourceRunRead:
    run = await session.get(SourceRun, run_id)
    if run is None or run.source_id != source.id:
        raise NotFound(f"No run {run_id} of source {source.name!r}.")
    return service.run_to_read(run)


@router.get(
    "/{source}/health",
    operation_id="sources-health",
    summary="Check that the source can be synced now (the folder, the first URL)",
    responses=problem_responses(404, 422),
)
@replica_read
async def source_health(
    source: SourceDep, session: SessionDep, request: Request, caller: CallerDep
) -> SourceHealthRead:
    return await service.health(
        session, source, settings=request.app.state.settings, actor=caller.actor
    )


@router.post(
    "/{source}/records",
    operation_id="sources-records",
    summary="Push records to a `records` source: upserts and deletes, each record a document",
    description="All records of a request are applied in one transaction, in order. A record "
    "is the document whose `external_id` is its `record_id`; an unchanged record is not "
    "ingested again.",
    responses=problem_responses(404, 409, 413, 422),
    dependencies=[require_json_body],
)
async def push_records(
    data: RecordsPush,
    kb: KnowledgeBaseDep,
    source: SourceDep,
    session: SessionDep,
    request: Request,
) -> RecordsResult:
    results = await records.push_records(
        session, kb, source, data, settings=request.app.state.settings
    )
    request.app.state.poke_workers()
    return RecordsResult(results=results)
