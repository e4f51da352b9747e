"""HTTP route for vectors from a knowledge base's embedding model."""

from __future__ import annotations

from fastapi import APIRouter

from app.auth.callers import Scope
from app.auth.dependencies import require_scope
from app.chunks.dependencies import EmbedderFactoryDep
from app.embeddings import service
from app.embeddings.schemas import EmbeddingCreate, EmbeddingRead
from app.kit.bodies import require_json_body
from app.kit.problems import problem_responses
from app.knowledge_bases.dependencies import KnowledgeBaseDep

router = APIRouter(
    prefix="/v1/knowledge-bases/{kb}",
    tags=["embeddings"],
    dependencies=[require_scope(Scope.READ)],
    responses=problem_responses(401, 403, 429),
)


@router.post(
    "/embed",
    operation_id="embeddings-create",
    summary="Embed texts with the knowledge base's own model, as ingestion or search would",
    description="Vectors compatible with the knowledge base: for `vector` searches "
    '(`input: "query"`, as search embeds `query`) or for chunks written with a `vector` '
    '(`input: "document"`, as ingestion embeds chunks). Nothing is stored. 409 `no-embedder` '
    "for a knowledge base with provider `none`; 503 `embedder-unavailable` when its model "
    "cannot be loaded or does not answer.",
    dependencies=[require_json_body],
    responses=problem_responses(404, 409, 415, 422, 503),
)
async def embed_texts(
    data: EmbeddingCreate, kb: KnowledgeBaseDep, embedders: EmbedderFactoryDep
) -> EmbeddingRead:
    return await service.embed(embedders, kb, data)
