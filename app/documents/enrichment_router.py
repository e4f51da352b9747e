"""HTTP routes that write node enrichment (summaries, entities, keywords) onto a document's tree."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from app.auth.dependencies import require_scope_by_method
from app.db.dependencies import SessionDep
from app.documents import enrichment
from app.documents.dependencies import DocumentDep
from app.documents.enrichment import EnrichmentResult, EnrichmentWrite
from app.ingestion.tree import NodeEnrichment
from app.kit.bodies import require_json_body
from app.kit.problems import problem_responses

router = APIRouter(
    prefix="/v1/knowledge-bases/{kb}/documents",
    tags=["documents"],
    dependencies=[require_scope_by_method],
    responses=problem_responses(401, 403, 429),
)


@router.put(
    "/{doc}/nodes/{node_id}/enrichment",
    operation_id="documents-put_node_enrichment",
    summary="Set one node's enrichment (summary, entities, keywords)",
    responses=problem_responses(404, 409, 422),
    dependencies=[require_json_body],
)
async def put_node_enrichment(
    document: DocumentDep, node_id: str, body: NodeEnrichment, session: SessionDep
) -> NodeEnrichment:
    await enrichment.write(session, document, {node_id: body}, missing_is_404=True)
    return body


@router.delete(
    "/{doc}/nodes/{node_id}/enrichment",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="documents-delete_node_enrichment",
    summary="Remove one node's enrichment",
    responses=problem_responses(404, 409),
)
async def delete_node_enrichment(
    document: DocumentDep, node_id: str, session: SessionDep
) -> Response:
    await enrichment.write(session, document, {node_id: None}, missing_is_404=True)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.patch(
    "/{doc}/enrichment",
    operation_id="documents-patch_enrichment",
    summary="Set or remove the enrichment of many nodes at once, all or none",
    responses=problem_responses(404, 409, 422),
    dependencies=[require_json_body],
)
async def patch_enrichment(
    document: DocumentDep, body: EnrichmentWrite, session: SessionDep
) -> EnrichmentResult:
    updates = enrichment.batch_updates(body)
    root = await enrichment.write(session, document, updates)
    return enrichment.result(document, root, len(updates))
