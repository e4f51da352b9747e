"""HTTP route for parsing: a document's tree (and chunks) without storing anything."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import ValidationError

from app.auth.callers import Caller, Scope
from app.auth.dependencies import CallerDep, require_scope
from app.chunks.dependencies import EmbedderFactoryDep
from app.documents.upload import Upload, precheck, read_multipart
from app.ingestion.parsers import ParseLimits
from app.kit.bodies import invalid_body, read_json_model, reads_body_by_hand
from app.kit.errors import UnsupportedMediaType, ValidationFailed
from app.kit.problems import problem_responses
from app.knowledge_bases import service as knowledge_bases
from app.models import KnowledgeBase
from app.parse import service
from app.parse.schemas import (
    CHUNKING_FIELD,
    KNOWLEDGE_BASE_FIELD,
    ParseOptions,
    ParseRead,
    ParseRequest,
)

router = APIRouter(
    prefix="/v1",
    tags=["parse"],
    dependencies=[require_scope(Scope.READ)],
    responses=problem_responses(401, 403, 429),
)

# Upload fields that only storing a document needs: refused, not silently dropped.
STORING_FIELDS = ("metadata", "source_uri", "external_id", "access")

PARSE_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/ParseRequest"}},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {
                        "file": {"type": "string", "format": "binary"},
                        "title": {"type": "string"},
                        "format": {
                            "type": "string",
                            "description": "A supported format name; detected when absent.",
                        },
                        "knowledge_base": {"type": "string", "description": KNOWLEDGE_BASE_FIELD},
                        "chunking": {
                            "type": "string",
                            "description": f"A JSON object. {CHUNKING_FIELD}",
                        },
                    },
                }
            },
        },
    }
}


def parse_slots(request: Request) -> asyncio.Semaphore:
    """How many parses one process runs at once: as many as its ingestion job loops run (at
    least one)."""
    state = request.app.state
    slots: asyncio.Semaphore | None = getattr(state, "parse_slots", None)
    if slots is None:
        slots = state.parse_slots = asyncio.Semaphore(max(1, state.settings.workers))
    return slots


@router.post(
    "/parse",
    operation_id="parse-document",
    summary="Parse text or a file into its document tree (and chunks), storing nothing",
    description=(
        "What an upload's ingestion would make of the same bytes: JSON (`{text, title?, "
        "format?}`) or multipart (`file`, `title`, `format`) in any upload format, detected, "
        "limited, checked and parsed exactly as uploads are, with the same errors; here the "
        "parser's errors (a corrupt or encrypted PDF, a zip bomb) are answered at once as 422 "
        "`unprocessable-document` (413 for extracted text over its limit). With "
        "`knowledge_base` (and optionally `chunking`), also the chunks an upload to it would "
        "get. Parsing runs in worker threads, as many at once per process as its ingestion "
        "job loops (`ARBOR_WORKERS`, at least one); further requests wait their turn."
    ),
    openapi_extra=PARSE_BODY,
    responses={
        200: {"model": ParseRead, "description": "The parsed document"},
        **problem_responses(400, 404, 413, 415, 422),
    },
)
@reads_body_by_hand
async def parse_document(
    request: Request, caller: CallerDep, embedders: EmbedderFactoryDep
) -> Response:
    settings = request.app.state.settings
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "application/json":
        data = await read_json_model(
            request,
            ParseRequest,
            limit=settings.max_upload_bytes,
            what="a valid document to parse",
        )
        upload = Upload(
            data=data.text.encode("utf-8"),
            is_text=True,
            format=data.format,
            title=data.title,
            chunking=data.chunking,
        )
        kb_ref = data.knowledge_base
    elif content_type == "multipart/form-data":
        upload = await read_multipart(
            request, settings.max_upload_bytes, also=("knowledge_base", *STORING_FIELDS)
        )
        kb_ref = _form_knowledge_base(upload)
    else:
        raise UnsupportedMediaType(
            "Send application/json ({text, title, ...}) or multipart/form-data with a `file`."
        )
    detected = precheck(upload)
    kb = await _knowledge_base(request, caller, kb_ref, upload, detected)
    body = await service.run_bounded(
        parse_slots(request),
        lambda: (
            service.parse(
                upload,
                detected_format=detected,
                kb=kb,
                embedders=embedders,
                limits=ParseLimits.within(settings.ingest_memory_bytes),
            )
            .model_dump_json()
            .encode()
        ),
    )
    return Response(body, media_type="application/json")


def _form_knowledge_base(upload: Upload) -> str | None:
    """The multipart form's `knowledge_base`, checked as the JSON field is."""
    # Sent at all, even empty: a field that is not taken is refused, never silently dropped.
    given = [name for name in STORING_FIELDS if name in upload.also]
    if given:
        raise ValidationFailed(
            f"Form field {given[0]!r} is not taken here: parsing stores nothing."
        )
    try:
        options = ParseOptions.model_validate(upload.also)
    except ValidationError as exc:
        raise invalid_body(exc, "a valid document to parse") from exc
    return options.knowledge_base


async def _knowledge_base(
    request: Request, caller: Caller, ref: str | None, upload: Upload, detected_format: str
) -> KnowledgeBase | None:
    """The knowledge base to chunk for, in the caller's project and within its key's limits
    (404 otherwise, as in paths); its chunking with the override checked as an upload's."""
    if ref is None:
        if upload.chunking is not None:
            raise ValidationFailed(
                "`chunking` needs a `knowledge_base`: chunk sizes count its embedder's tokens."
            )
        return None
    async with request.app.state.database.transaction(
        project_id=caller.project.id, knowledge_bases=caller.knowledge_bases
    ) as session:
        kb = await knowledge_bases.get_or_404(session, project_id=caller.project.id, ref=ref)
    knowledge_bases.check_chunking(kb, upload.chunking, document_format=detected_format)
    return kb
