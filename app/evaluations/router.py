"""HTTP routes for evaluations: post a judged query set, read its results, list them."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, status
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from app.auth.dependencies import CallerDep, require_scope_by_method
from app.db.dependencies import SessionDep, replica_read
from app.evaluations import formats, repository, service
from app.evaluations.schemas import EvaluationCreate, EvaluationRead, EvaluationSummary
from app.kit.bodies import limited_stream, read_json_model, reads_body_by_hand
from app.kit.errors import BadRequest, NotFound, UnsupportedMediaType, ValidationFailed
from app.kit.pagination import Page, PageParams, decode_time_cursor, encode_time_cursor, page_params
from app.kit.problems import problem_responses
from app.knowledge_bases.dependencies import KnowledgeBaseDep

router = APIRouter(
    prefix="/v1/knowledge-bases/{kb}/evaluations",
    tags=["evaluations"],
    dependencies=[require_scope_by_method],
    responses=problem_responses(401, 403, 429),
)

FORM_FIELDS = ("queries", "qrels", "configurations", "name")
MAX_FORM_FIELD_BYTES = 1024 * 1024

CREATE_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/EvaluationCreate"}},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["queries", "qrels"],
                    "properties": {
                        "queries": {
                            "type": "string",
                            "format": "binary",
                            "description": "BEIR queries.jsonl: one {_id, text} per line.",
                        },
                        "qrels": {
                            "type": "string",
                            "format": "binary",
                            "description": "BEIR qrels TSV: query-id, corpus-id, score.",
                        },
                        "configurations": {
                            "type": "string",
                            "description": "A JSON list of {name, ...search options}.",
                        },
                        "name": {"type": "string"},
                    },
                }
            },
        },
    }
}


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="evaluations-create",
    summary="Measure retrieval on judged queries: nDCG@10, Recall@10/100, MRR@10 per configuration",
    description="A BEIR query set and judgments (JSON, or the BEIR files as multipart), and one "
    "or more search configurations. Runs as a job through search with the caller's own "
    "document access; poll `GET .../evaluations/{id}` for the results. A judged `doc_id` names "
    "a document by id or external id.",
    openapi_extra=CREATE_BODY,
    responses={
        202: {"model": EvaluationRead, "description": "Queued"},
        **problem_responses(400, 404, 413, 415, 422),
    },
)
@reads_body_by_hand
async def create_evaluation(
    request: Request, kb: KnowledgeBaseDep, session: SessionDep, caller: CallerDep
) -> EvaluationRead:
    settings = request.app.state.settings
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "application/json":
        data = await read_json_model(
            request, EvaluationCreate, limit=settings.max_upload_bytes, what="a valid evaluation"
        )
    elif content_type == "multipart/form-data":
        data = await _read_files(request, settings.max_upload_bytes)
    else:
        raise UnsupportedMediaType(
            "Send application/json ({queries, qrels, configurations}) or multipart/form-data "
            "with `queries` and `qrels` files."
        )
    evaluation = await service.create(session, kb, data, caller=caller, settings=settings)
    request.app.state.poke_workers()
    return service.to_read(evaluation)


async def _read_files(request: Request, limit: int) -> EvaluationCreate:
    parser = MultiPartParser(
        request.headers,
        limited_stream(request, limit),
        max_files=2,
        max_fields=4,
        max_part_size=MAX_FORM_FIELD_BYTES,
    )
    try:
        form = await parser.parse()
    except MultiPartException as exc:
        raise BadRequest(f"The multipart body is malformed: {exc.message}") from exc
    try:
        unknown = sorted(set(form.keys()) - set(FORM_FIELDS))
        if unknown:
            raise ValidationFailed(
                f"Form field {unknown[0]!r} is not taken here; the fields are "
                f"{', '.join(f'`{name}`' for name in FORM_FIELDS)}."
            )
        files: dict[str, bytes] = {}
        for name in ("queries", "qrels"):
            part = form.get(name)
            if isinstance(part, UploadFile):
                files[name] = await part.read()
            elif isinstance(part, str):
                files[name] = part.encode()
            else:
                raise ValidationFailed(f"A multipart evaluation needs a `{name}` part.")
        texts: dict[str, str | None] = {}
        for field in ("configurations", "name"):
            value = form.get(field)
            if value is not None and not isinstance(value, str):
                raise ValidationFailed(f"Form field {field!r} must be text.")
            texts[field] = value
        return formats.from_files(
            files["queries"],
            files["qrels"],
            configurations=texts["configurations"],
            name=texts["name"],
        )
    finally:
        await form.close()


@router.get(
    "",
    operation_id="evaluations-list",
    summary="Evaluations of a knowledge base, newest first, with their means",
    responses=problem_responses(404, 422),
)
@replica_read
async def list_evaluations(
    kb: KnowledgeBaseDep, session: SessionDep, params: Annotated[PageParams, Depends(page_params)]
) -> Page[EvaluationSummary]:
    rows, total = await repository.page(
        session, kb.id, after=decode_time_cursor(params.cursor), limit=params.limit
    )
    last = rows[-1] if len(rows) == params.limit else None
    return Page[EvaluationSummary](
        items=[service.to_summary(row) for row in rows],
        total=total,
        limit=params.limit,
        next_cursor=encode_time_cursor(last.created_at, last.id) if last is not None else None,
    )


@router.get(
    "/{evaluation_id}",
    operation_id="evaluations-get",
    summary="An evaluation: its status, and once succeeded its measures and per-query rows",
    responses=problem_responses(404, 422),
)
@replica_read
async def get_evaluation(
    evaluation_id: uuid.UUID, kb: KnowledgeBaseDep, session: SessionDep
) -> EvaluationRead:
    evaluation = await repository.get(session, kb.id, evaluation_id)
    if evaluation is None:
        raise NotFound(f"No evaluation {evaluation_id}.")
    return service.to_read(evaluation)
