"""HTTP routes for knowledge bases."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, BackgroundTasks, Depends, Request, Response, status

from app.auth.dependencies import (
    CallerDep,
    VisibleDocumentsDep,
    require_all_knowledge_bases,
    require_scope_by_method,
)
from app.chunks import index_upkeep
from app.db.dependencies import DatabaseDep, SessionDep, replica_read
from app.documents import repository as documents_repository
from app.graph import vector_index as graph_vector_index
from app.kit.bodies import require_json_body
from app.kit.pagination import Page, PageParams, page_params
from app.kit.problems import problem_responses
from app.knowledge_bases import copies, service
from app.knowledge_bases.copies import KnowledgeBaseCopied, KnowledgeBaseCopy
from app.knowledge_bases.dependencies import KnowledgeBaseDep
from app.knowledge_bases.schemas import (
    KnowledgeBaseCreate,
    KnowledgeBaseRead,
    KnowledgeBaseUpdate,
)
from app.models import KnowledgeBase
from app.projects.dependencies import ProjectDep

router = APIRouter(
    prefix="/v1/knowledge-bases",
    tags=["knowledge-bases"],
    dependencies=[require_scope_by_method],
    responses=problem_responses(401, 403, 429),
)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="knowledge_bases-create",
    summary="Create a knowledge base",
    responses=problem_responses(409, 415, 422),
    dependencies=[require_all_knowledge_bases, require_json_body],
)
async def create_knowledge_base(
    data: KnowledgeBaseCreate,
    database: DatabaseDep,
    caller: CallerDep,
    project: ProjectDep,
    response: Response,
) -> KnowledgeBaseRead:
    # Its own transaction, not the request's session: the index is built after the commit
    # (CREATE INDEX CONCURRENTLY waits for every older transaction, a request's own included).
    async with database.transaction(
        project_id=caller.project.id, knowledge_bases=caller.knowledge_bases
    ) as session:
        created = await service.create(session, project_id=project.id, data=data)
        kb = await session.get(KnowledgeBase, created.id)
    assert kb is not None
    await index_upkeep.build_index_of(database, kb)
    if graph_vector_index.wants_index(kb):
        await graph_vector_index.keep_up(database, kb)
    response.headers["Location"] = f"/v1/knowledge-bases/{created.id}"
    return created


@router.get(
    "",
    operation_id="knowledge_bases-list",
    summary="List knowledge bases",
    responses=problem_responses(422),
)
@replica_read
async def list_knowledge_bases(
    session: SessionDep,
    project: ProjectDep,
    page: Annotated[PageParams, Depends(page_params)],
) -> Page[KnowledgeBaseRead]:
    return await service.list_page(
        session, project_id=project.id, limit=page.limit, cursor=page.cursor
    )


@router.get(
    "/{kb}",
    operation_id="knowledge_bases-get",
    summary="Get a knowledge base by id or name",
    responses=problem_responses(404),
)
@replica_read
async def get_knowledge_base(kb: KnowledgeBaseDep, session: SessionDep) -> KnowledgeBaseRead:
    return await service.get(session, kb)


@router.patch(
    "/{kb}",
    operation_id="knowledge_bases-update",
    summary="Update a knowledge base's name, title, description or chunking",
    responses=problem_responses(404, 409, 415, 422),
    dependencies=[require_json_body],
)
async def update_knowledge_base(
    kb: KnowledgeBaseDep,
    data: KnowledgeBaseUpdate,
    session: SessionDep,
    database: DatabaseDep,
    background: BackgroundTasks,
) -> KnowledgeBaseRead:
    had_graph_index = graph_vector_index.wants_index(kb)
    updated = await service.update(session, kb, data)
    if graph_vector_index.wants_index(kb) != had_graph_index:
        # After the commit, as a creation's index (app/graph/vector_index.py).
        background.add_task(graph_vector_index.keep_up, database, kb)
    return updated


@router.delete(
    "/{kb}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="knowledge_bases-delete",
    summary="Delete a knowledge base with all its documents and chunks",
    responses=problem_responses(404),
)
async def delete_knowledge_base(
    kb: KnowledgeBaseDep,
    session: SessionDep,
    database: DatabaseDep,
    visible: VisibleDocumentsDep,
    background: BackgroundTasks,
) -> Response:
    found = await documents_repository.unreadable_exists(session, kb, visible, holding_chunks=False)
    documents_repository.refuse_if_unreadable(found, "deleting the knowledge base")
    await service.delete(session, kb)
    # After the commit, which comes before the response (app/db/dependencies.py).
    background.add_task(index_upkeep.drop_index_of, database, kb.id)
    background.add_task(graph_vector_index.forget, database, kb.id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/{kb}/copy",
    status_code=status.HTTP_202_ACCEPTED,
    operation_id="knowledge_bases-copy",
    summary="Copy into a new knowledge base with other settings (a new embedding model)",
    description="Creates the knowledge base the body describes (as `POST /v1/knowledge-bases`) "
    "and copies this one's ready documents into it, in one transaction: documents with a tree "
    "are queued and chunked and embedded again by the background jobs, with the new settings; "
    "the chunks of documents without one (the chunk API's) are copied and embedded by an "
    "`embed` job. This knowledge base is not changed and stays searchable. See "
    'docs/vector-storage.md, "Changing the model".',
    responses=problem_responses(404, 409, 415, 422),
    dependencies=[require_all_knowledge_bases, require_json_body],
)
async def copy_knowledge_base(
    request: Request,
    data: KnowledgeBaseCopy,
    kb: KnowledgeBaseDep,
    session: SessionDep,
    visible: VisibleDocumentsDep,
    response: Response,
    background: BackgroundTasks,
) -> KnowledgeBaseCopied:
    copied = await copies.copy_into(
        session, kb, data, visible=visible, settings=request.app.state.settings
    )
    response.headers["Location"] = f"/v1/knowledge-bases/{copied.knowledge_base.id}"
    background.add_task(request.app.state.poke_workers)
    # After the commit, as a creation's (app/chunks/index_upkeep.py); until it is built, the
    # copy searches exactly.
    target = await session.get(KnowledgeBase, copied.knowledge_base.id)
    assert target is not None
    background.add_task(index_upkeep.build_index_of, request.app.state.database, target)
    if graph_vector_index.wants_index(target):
        background.add_task(graph_vector_index.keep_up, request.app.state.database, target)
    return copied
