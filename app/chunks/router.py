"""HTTP routes for chunks (seed 000's chunk operations, over REST)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response, status

from app.auth.dependencies import VisibleDocumentsDep, require_scope_by_method
from app.chunks import deferred_index, service
from app.chunks.dependencies import EmbedderFactoryDep
from app.chunks.schemas import (
    ChunkBulkItem,
    ChunkBulkResult,
    ChunkBulkUpsert,
    ChunkCount,
    ChunkDeleteResult,
    ChunkRead,
    ChunkUpsert,
)
from app.db.dependencies import SessionDep, replica_read
from app.documents import repository as documents_repository
from app.documents.dependencies import DocumentDep
from app.kit.bodies import (
    json_request_body,
    read_json_model,
    reads_body_by_hand,
    require_json,
    require_json_body,
)
from app.kit.pagination import Page, PageParams, page_params
from app.kit.problems import problem_responses
from app.knowledge_bases.dependencies import KnowledgeBaseDep

# Shown on both routes that take client-chosen ids (docs/tenancy.md, "Chunk ids").
CHUNK_IDS_PER_KNOWLEDGE_BASE = (
    "Chunk ids are unique within the knowledge base: another knowledge base, of this project "
    "or another, may hold the same id, and writing it here never touches that chunk. An id held "
    "here by a chunk of a document the caller may not read is refused with 409 "
    "`chunk-id-in-use`, and nothing is written."
)
# Shown on both write routes: what happens when the embedder fails (docs/ingestion.md).
EMBEDDER_DOWN = (
    "\n\nChunks sent without a vector are embedded by the knowledge base's model. Should it "
    "fail (an API down, refusing, timing out), they are stored without a vector all the same "
    "(`embedded: false`; in bulk, `embedded` counts the others and `embedding_error` says "
    "why): text search finds them, and `POST .../chunks/embed` embeds them later."
)

router = APIRouter(
    prefix="/v1/knowledge-bases/{kb}",
    tags=["chunks"],
    dependencies=[require_scope_by_method],
    responses=problem_responses(401, 403, 429),
)


@router.put(
    "/chunks/{chunk_id}",
    operation_id="chunks-upsert",
    summary="Create or replace one chunk; embedded unless a vector is supplied",
    description=CHUNK_IDS_PER_KNOWLEDGE_BASE + EMBEDDER_DOWN,
    responses={
        201: {"model": ChunkRead, "description": "Created"},
        **problem_responses(404, 409, 422),
    },
    dependencies=[require_json_body],
)
async def upsert_chunk(
    chunk_id: uuid.UUID,
    data: ChunkUpsert,
    kb: KnowledgeBaseDep,
    session: SessionDep,
    embedders: EmbedderFactoryDep,
    visible: VisibleDocumentsDep,
    response: Response,
) -> ChunkRead:
    existed = await service.get_or_none(session, kb, chunk_id)
    item = ChunkBulkItem(**data.model_dump(), chunk_id=chunk_id)
    await service.upsert_many(session, kb, [item], embedders(kb), visible=visible)
    if existed is None:
        response.status_code = status.HTTP_201_CREATED
    return service.to_read(await service.get_fresh(session, kb, chunk_id))


@router.post(
    "/chunks/bulk",
    operation_id="chunks-bulk_upsert",
    summary="Create or replace many chunks at once, all or nothing",
    description=CHUNK_IDS_PER_KNOWLEDGE_BASE + EMBEDDER_DOWN,
    openapi_extra=json_request_body(ChunkBulkUpsert),
    responses=problem_responses(404, 409, 413, 415, 422),
)
@reads_body_by_hand
async def bulk_upsert_chunks(
    request: Request,
    kb: KnowledgeBaseDep,
    session: SessionDep,
    embedders: EmbedderFactoryDep,
    visible: VisibleDocumentsDep,
    defer_index: Annotated[
        bool,
        Query(
            description="Large loads: drop the knowledge base's vector index now and rebuild "
            "it once, 10 seconds after the last deferring request, instead of updating it "
            "row by row. Vector search stays correct meanwhile (exact, slower). See "
            "docs/vector-storage.md."
        ),
    ] = False,
) -> ChunkBulkResult:
    # Read by hand: size-limited, and parsed from the bytes (app/kit/bodies.py).
    require_json(request, '{"chunks": [{text, doc_id, vector?, ...}]}')
    data = await read_json_model(
        request,
        ChunkBulkUpsert,
        limit=request.app.state.settings.max_bulk_bytes,
        what="a valid bulk of chunks",
    )
    database = request.app.state.database
    job = await deferred_index.defer(database, kb) if defer_index else None
    try:
        result = await service.upsert_many(session, kb, data.chunks, embedders(kb), visible=visible)
    except BaseException:
        if job is not None:
            await deferred_index.release(database, kb)
        raise
    if job is not None:
        # The build waits DEBOUNCE_S from the end of this load, not its start.
        result.index_job_id = (await deferred_index.schedule_build(session, kb)).id
    return result


@router.get(
    "/chunks/count",
    operation_id="chunks-count",
    summary="Count chunks, embedded and not",
    responses=problem_responses(404),
)
@replica_read
async def count_chunks(kb: KnowledgeBaseDep, session: SessionDep) -> ChunkCount:
    return await service.count(session, kb)


@router.get(
    "/chunks/{chunk_id}",
    operation_id="chunks-get",
    summary="Get one chunk",
    responses=problem_responses(404, 422),
)
@replica_read
async def get_chunk(
    chunk_id: uuid.UUID,
    kb: KnowledgeBaseDep,
    session: SessionDep,
    visible: VisibleDocumentsDep,
    include_vector: Annotated[bool, Query(description="Return the vector too.")] = False,
) -> ChunkRead:
    chunk = await service.get_or_404(session, kb, chunk_id, visible=visible)
    return service.to_read(chunk, include_vector=include_vector)


@router.get(
    "/chunks",
    operation_id="chunks-list",
    summary="List chunks, by document and by whether they are embedded",
    responses=problem_responses(404, 422),
)
@replica_read
async def list_chunks(
    kb: KnowledgeBaseDep,
    session: SessionDep,
    visible: VisibleDocumentsDep,
    page: Annotated[PageParams, Depends(page_params)],
    doc_id: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=256,
            description="Only this document's chunks: its id or external id (as chunk writes "
            "take it). One that names no document lists nothing, as a `doc_id` or "
            "`external_id` filter would.",
        ),
    ] = None,
    embedded: Annotated[
        bool | None, Query(description="true: with a vector; false: without.")
    ] = None,
    include_vector: Annotated[bool, Query(description="Return the vectors too.")] = False,
) -> Page[ChunkRead]:
    return await service.list_page(
        session,
        kb,
        document_id=None,
        document_ref=doc_id,
        embedded=embedded,
        limit=page.limit,
        cursor=page.cursor,
        include_vector=include_vector,
        visible=visible,
    )


@router.delete(
    "/chunks",
    operation_id="chunks-clear",
    summary="Delete every chunk of the knowledge base (documents stay)",
    responses=problem_responses(404),
)
async def clear_chunks(
    kb: KnowledgeBaseDep, session: SessionDep, visible: VisibleDocumentsDep
) -> ChunkDeleteResult:
    found = await documents_repository.unreadable_exists(session, kb, visible, holding_chunks=True)
    documents_repository.refuse_if_unreadable(found, "deleting every chunk")
    return await service.delete(session, kb)


@router.delete(
    "/documents/{doc}/chunks",
    operation_id="chunks-delete_for_document",
    summary="Delete one document's chunks (the document stays)",
    responses=problem_responses(404),
)
async def delete_document_chunks(
    kb: KnowledgeBaseDep, document: DocumentDep, session: SessionDep
) -> ChunkDeleteResult:
    return await service.delete(session, kb, document_id=document.id)
