"""HTTP routes that move a whole document as one JSON object: export and import."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, status
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.auth.dependencies import VisibleDocumentsDep, require_scope_by_method
from app.chunks.dependencies import EmbedderFactoryDep
from app.chunks.schemas import ChunkBulkResult
from app.db.dependencies import DatabaseDep, SessionDep, replica_read
from app.documents import service, transfer
from app.documents.dependencies import DocumentWithTreeDep
from app.documents.schemas import DocumentRead
from app.documents.transfer import DocumentTransfer
from app.kit.bodies import json_request_body, read_json_model, reads_body_by_hand, require_json
from app.kit.problems import problem_responses
from app.knowledge_bases.dependencies import KnowledgeBaseDep

router = APIRouter(
    prefix="/v1/knowledge-bases/{kb}/documents",
    tags=["documents"],
    dependencies=[require_scope_by_method],
    responses=problem_responses(401, 403, 429),
)


class DocumentImported(BaseModel):
    document: DocumentRead
    chunks: ChunkBulkResult | None = None


@router.get(
    "/{doc}/export",
    operation_id="documents-export",
    summary="The whole document as one JSON object (tree, chunks, vectors): a valid import",
    responses=problem_responses(404, 409),
)
@replica_read
async def export_document(
    kb: KnowledgeBaseDep,
    document: DocumentWithTreeDep,
    session: SessionDep,
    vectors: Annotated[
        bool, Query(description="Include the chunks' vectors (base64 float32).")
    ] = False,
) -> DocumentTransfer:
    return await transfer.export(session, kb, document, vectors=vectors)


@router.post(
    "/import",
    status_code=status.HTTP_201_CREATED,
    response_model=DocumentImported,
    operation_id="documents-import",
    summary="Store a document from its JSON: a tree, chunks (with or without vectors), or both",
    description="With chunks the document is ready at once (201); with a tree alone it is "
    "queued (202) and chunked and embedded with the knowledge base's settings. All or nothing. "
    "An `external_id` already in use is a 409: imports never replace. See docs/ingestion.md.",
    openapi_extra=json_request_body(DocumentTransfer),
    responses={
        202: {"model": DocumentImported, "description": "Queued"},
        **problem_responses(409, 413, 415, 422),
    },
)
@reads_body_by_hand
async def import_document(
    request: Request,
    kb: KnowledgeBaseDep,
    database: DatabaseDep,
    embedders: EmbedderFactoryDep,
    visible: VisibleDocumentsDep,
    keep_chunk_ids: Annotated[
        bool,
        Query(
            description="Keep the chunks' `chunk_id`s (new ones otherwise). Ids are unique "
            "within a knowledge base: one in use in this one is a 409 `chunk-id-in-use`."
        ),
    ] = False,
) -> JSONResponse:
    require_json(request, "a document as GET .../export answers it")
    settings = request.app.state.settings
    body = await read_json_model(
        request, DocumentTransfer, limit=settings.max_bulk_bytes, what="a document to import"
    )
    async with database.transaction(project_id=kb.project_id, knowledge_bases=[kb.id]) as session:
        document, written = await transfer.import_document(
            session,
            kb,
            body,
            settings=settings,
            embedder=embedders(kb),
            keep_chunk_ids=keep_chunk_ids,
            visible=visible,
        )
    queued = written is None
    if queued:
        request.app.state.poke_workers()
    answer = DocumentImported(document=service.to_read(document), chunks=written)
    return JSONResponse(
        answer.model_dump(mode="json"),
        status_code=status.HTTP_202_ACCEPTED if queued else status.HTTP_201_CREATED,
        headers={"Location": f"{request.url.path.removesuffix('/import')}/{document.id}"},
    )
