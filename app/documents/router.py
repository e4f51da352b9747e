"""HTTP routes for documents: upload, status, update, tree, nodes, delete, reindex."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Depends, Query, Request, Response, status
from fastapi.responses import JSONResponse

from app.auth.dependencies import VisibleDocumentsDep, require_scope_by_method
from app.chunks import service as chunks_service
from app.chunks.schemas import ChunkRead
from app.db.dependencies import DatabaseDep, SessionDep, replica_read
from app.documents import service, tree_reads, updates
from app.documents.dependencies import DocumentDep, DocumentWithTreeDep
from app.documents.from_url import fetched_upload
from app.documents.schemas import (
    MAX_BATCH_DOCUMENTS,
    AncestorRead,
    DocumentBatchCreate,
    DocumentBatchItem,
    DocumentBatchRead,
    DocumentDeleteByFilter,
    DocumentDeleteResult,
    DocumentRead,
    DocumentStatus,
    DocumentUpdate,
    TreeRead,
)
from app.documents.upload import precheck, read_json, read_json_batch, read_multipart
from app.ingestion.tree import AnyNode
from app.kit import nesting
from app.kit.bodies import json_request_body, reads_body_by_hand, require_json, require_json_body
from app.kit.errors import AppError, NotFound, UnsupportedMediaType, ValidationFailed
from app.kit.pagination import Page, PageParams, page_params
from app.kit.problems import problem_responses
from app.kit.strings import json_problem
from app.knowledge_bases import service as knowledge_bases
from app.knowledge_bases.dependencies import KnowledgeBaseDep

router = APIRouter(
    prefix="/v1/knowledge-bases/{kb}/documents",
    tags=["documents"],
    dependencies=[require_scope_by_method],
    responses=problem_responses(401, 403, 429),
)

UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "oneOf": [
                        {"$ref": "#/components/schemas/DocumentCreate"},
                        {"$ref": "#/components/schemas/DocumentFromUrl"},
                    ]
                }
            },
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {
                        "file": {"type": "string", "format": "binary"},
                        "title": {"type": "string"},
                        "metadata": {"type": "string", "description": "A JSON object."},
                        "external_id": {"type": "string"},
                        "source_uri": {"type": "string"},
                        "format": {"type": "string"},
                        "chunking": {"type": "string", "description": "A JSON object."},
                        "access": {
                            "type": "string",
                            "description": 'A JSON object: {"principals": [...]}.',
                        },
                    },
                }
            },
        },
    }
}


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="documents-create",
    summary="Upload a document (file or text) to be parsed, chunked and embedded",
    description=(
        "Answers 202 with the queued document, or 200 with the existing one when the same bytes "
        "were uploaded before. `wait=true` holds the answer until the document is `ready` or "
        "`failed` (or `timeout` seconds pass). Offsets in trees and chunks count Unicode code "
        "points of the extracted text."
    ),
    openapi_extra=UPLOAD_BODY,
    responses={
        200: {"model": DocumentRead, "description": "Already uploaded, or done waiting"},
        202: {"model": DocumentRead, "description": "Queued"},
        **problem_responses(400, 404, 413, 415, 422),
    },
)
@reads_body_by_hand
async def create_document(
    request: Request,
    kb: KnowledgeBaseDep,
    database: DatabaseDep,
    visible: VisibleDocumentsDep,
    wait: Annotated[bool, Query(description="Wait until ready or failed.")] = False,
    wait_timeout: Annotated[
        float, Query(alias="timeout", gt=0, le=600, description="Seconds to wait at most.")
    ] = 60,
) -> JSONResponse:
    settings = request.app.state.settings
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "application/json":
        upload = await read_json(request, settings.max_upload_bytes)
        if upload.url is not None:
            upload = await fetched_upload(upload, settings)
    elif content_type == "multipart/form-data":
        upload = await read_multipart(request, settings.max_upload_bytes)
    else:
        raise UnsupportedMediaType(
            "Send application/json ({text, title, ...}) or multipart/form-data with a `file`."
        )
    detected = precheck(upload)
    knowledge_bases.check_chunking(kb, upload.chunking, document_format=detected)
    async with database.transaction(project_id=kb.project_id, knowledge_bases=[kb.id]) as session:
        document, created = await service.create(
            session, kb, upload, detected_format=detected, settings=settings, visible=visible
        )
    if created:
        request.app.state.poke_workers()
    code = status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK
    if wait and created:
        finished = await service.wait_until_done(
            database,
            document.id,
            project_id=kb.project_id,
            timeout_s=wait_timeout,
            jobs_ran=request.app.state.jobs_ran,
        )
        if finished is None:
            raise NotFound(
                f"Document {document.id} was deleted while this request waited for it (by a "
                "DELETE, or superseded by a newer upload of its external id)."
            )
        document = finished
        if document.status in ("ready", "failed"):
            code = status.HTTP_200_OK
    body = service.to_read(document).model_dump(mode="json")
    return JSONResponse(
        body, status_code=code, headers={"Location": f"{request.url.path}/{document.id}"}
    )


@router.post(
    "/batch",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="documents-create-batch",
    summary="Upload many text documents in one request",
    description=(
        f"Up to {MAX_BATCH_DOCUMENTS} JSON documents (each as the JSON body of a single upload), "
        "accepted together or not at all: an invalid one rejects the request, naming its index, "
        "and nothing is stored. The same size limit as one upload applies to the whole body. "
        "Each result says whether the document was created or the same bytes were uploaded "
        "before; 202 when any was created, else 200. Documents of one batch are ingested "
        "together, which is the fast way to load many short documents."
    ),
    openapi_extra=json_request_body(DocumentBatchCreate),
    responses={
        200: {"model": DocumentBatchRead, "description": "Every document existed already"},
        202: {"model": DocumentBatchRead, "description": "Queued"},
        **problem_responses(400, 404, 413, 415, 422),
    },
)
@reads_body_by_hand
async def create_documents(
    request: Request, kb: KnowledgeBaseDep, database: DatabaseDep, visible: VisibleDocumentsDep
) -> JSONResponse:
    settings = request.app.state.settings
    require_json(request, '{"documents": [{text, title, ...}]}')
    uploads = await read_json_batch(request, settings.max_upload_bytes)
    checked = []
    for index, upload in enumerate(uploads):
        try:
            detected = precheck(upload)
            knowledge_bases.check_chunking(kb, upload.chunking, document_format=detected)
            checked.append((upload, detected))
        except AppError as exc:
            raise type(exc)(
                f"documents[{index}]: {exc.detail}", extra={**exc.extra, "index": index}
            ) from exc
    async with database.transaction(project_id=kb.project_id, knowledge_bases=[kb.id]) as session:
        stored = await service.create_many(session, kb, checked, settings=settings, visible=visible)
        results = [
            DocumentBatchItem(created=created, document=service.to_read(document))
            for document, created in stored
        ]
    created_any = any(result.created for result in results)
    if created_any:
        request.app.state.poke_workers()
    return JSONResponse(
        DocumentBatchRead(results=results).model_dump(mode="json"),
        status_code=status.HTTP_202_ACCEPTED if created_any else status.HTTP_200_OK,
    )


@router.get(
    "",
    operation_id="documents-list",
    summary="List documents, by status, metadata or a filter",
    responses=problem_responses(404, 422),
)
@replica_read
async def list_documents(
    kb: KnowledgeBaseDep,
    session: SessionDep,
    visible: VisibleDocumentsDep,
    page: Annotated[PageParams, Depends(page_params)],
    status_: Annotated[DocumentStatus | None, Query(alias="status")] = None,
    metadata: Annotated[
        str | None, Query(description="A JSON object the metadata must contain.")
    ] = None,
    filter_: Annotated[
        str | None,
        Query(
            alias="filter",
            max_length=100_000,
            description="A filter (JSON) in search's filter language over document fields "
            "(`doc_id`, `doc_title`, `external_id`, `source_uri`, `filename`, `format`, "
            "`created_at`, `updated_at`, `status`) and `metadata.<key>`, e.g. "
            '`{"metadata.year": {"$gte": 2020}}`. A bad filter is a 422 naming its part.',
        ),
    ] = None,
) -> Page[DocumentRead]:
    filter_spec = None
    if filter_ is not None:
        filter_spec = nesting.loads(filter_, what="`filter`")
    wanted = None
    if metadata:
        wanted = nesting.loads(metadata, what="`metadata`")
        if not isinstance(wanted, dict):
            raise ValidationFailed("`metadata` must be a JSON object.")
        problem = json_problem(wanted)
        if problem is not None:
            raise ValidationFailed(f"`metadata` cannot be stored: {problem}.")
    return await service.list_page(
        session,
        kb,
        status=status_,
        metadata=wanted,
        filter_spec=filter_spec,
        visible=visible,
        limit=page.limit,
        cursor=page.cursor,
    )


@router.get(
    "/{doc}",
    operation_id="documents-get",
    summary="Get a document and its ingestion progress",
    responses=problem_responses(404),
)
@replica_read
async def get_document(document: DocumentDep) -> DocumentRead:
    return service.to_read(document)


@router.patch(
    "/{doc}",
    operation_id="documents-update",
    summary="Change a document's title, metadata, source URI or access list in place",
    description=(
        "Only the fields given change, without ingesting again; `metadata` replaces the whole "
        "object. In the same transaction the document's chunks take the new title and, where "
        "they have no metadata of their own, the new metadata, so search filters, hits and "
        "full-text search (which indexes the title) see the change at once, and a new "
        "`access` list applies to search, reads and the document's events at once. A pending "
        "new version of the document's external id takes the change too. Emits "
        "`document.updated` (unless nothing changed)."
    ),
    responses=problem_responses(404, 415, 422),
    dependencies=[require_json_body],
)
async def update_document(
    kb: KnowledgeBaseDep,
    document: DocumentDep,
    data: DocumentUpdate,
    session: SessionDep,
    visible: VisibleDocumentsDep,
) -> DocumentRead:
    updated = await updates.update(session, kb, document, data, visible=visible)
    return service.to_read(updated)


@router.get(
    "/{doc}/tree",
    operation_id="documents-get_tree",
    summary="The document tree (offsets in Unicode code points)",
    response_model=TreeRead,
    responses=problem_responses(404, 409),
)
@replica_read
async def get_tree(document: DocumentDep, session: SessionDep) -> Response:
    return await tree_reads.tree_response(session, document)


@router.get(
    "/{doc}/nodes/{node_id}",
    operation_id="documents-get_node",
    summary="One node of the tree, with its subtree",
    response_model=AnyNode,
    responses=problem_responses(404, 409),
)
@replica_read
async def get_node(document: DocumentDep, session: SessionDep, node_id: str) -> Response:
    return await tree_reads.node_response(session, document, node_id)


@router.get(
    "/{doc}/nodes/{node_id}/ancestors",
    operation_id="documents-get_ancestors",
    summary="The node's ancestors, root first, without their subtrees",
    responses=problem_responses(404, 409),
)
@replica_read
async def get_ancestors(document: DocumentWithTreeDep, node_id: str) -> list[AncestorRead]:
    return [
        AncestorRead.model_validate(node) for node in tree_reads.ancestors_or_404(document, node_id)
    ]


@router.get(
    "/{doc}/chunks",
    operation_id="documents-list_chunks",
    summary="The document's chunks in order",
    responses=problem_responses(404, 422),
)
@replica_read
async def list_document_chunks(
    kb: KnowledgeBaseDep,
    document: DocumentDep,
    session: SessionDep,
    page: Annotated[PageParams, Depends(page_params)],
    include_vector: bool = False,
    node_id: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=200,
            description="Only the chunks under this tree node: those whose `node_path` holds "
            "it or that hold any of its text (a section's chunks, its subsections' included, "
            "and a chunk a tiny section was merged into). 404 when the document's tree has no "
            "such node.",
        ),
    ] = None,
) -> Page[ChunkRead]:
    within = None
    if node_id is not None:
        within = await tree_reads.node_range(session, document, node_id)
    return await chunks_service.list_page(
        session,
        kb,
        document_id=document.id,
        embedded=None,
        limit=page.limit,
        cursor=page.cursor,
        include_vector=include_vector,
        node_id=node_id,
        node_range=within,
    )


@router.post(
    "/delete",
    operation_id="documents-delete_by_filter",
    summary="Delete the documents a filter matches, with their chunks; all or none",
    description="Deletes every document of the knowledge base that the filter matches and "
    "the caller can read, as `DELETE .../documents/{doc}` would one by one (chunks gone, "
    "processing cancelled), in one transaction. `dry_run` counts without deleting. An empty "
    "filter is refused: delete the knowledge base, or match everything explicitly.",
    responses=problem_responses(404, 422),
    dependencies=[require_json_body],
)
async def delete_documents_by_filter(
    kb: KnowledgeBaseDep,
    session: SessionDep,
    visible: VisibleDocumentsDep,
    body: DocumentDeleteByFilter,
) -> DocumentDeleteResult:
    return await service.delete_matching(
        session, kb, body.filter, visible=visible, dry_run=body.dry_run
    )


@router.delete(
    "/{doc}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="documents-delete",
    summary="Delete a document with its chunks; cancels its processing",
    responses=problem_responses(404),
)
async def delete_document(document: DocumentDep, session: SessionDep) -> Response:
    await service.delete(session, document)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/{doc}/reindex",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="documents-reindex",
    summary="Chunk and embed again with the knowledge base's current settings",
    responses=problem_responses(404, 409),
)
async def reindex_document(
    request: Request,
    kb: KnowledgeBaseDep,
    document: DocumentDep,
    session: SessionDep,
    background: BackgroundTasks,
) -> DocumentRead:
    updated = await service.reindex(session, kb, document, settings=request.app.state.settings)
    # Runs after the request's transaction committed, so the worker finds the job.
    background.add_task(request.app.state.poke_workers)
    return service.to_read(updated)
