"""HTTP routes for projects and their API keys (admin scope)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Response, status

from app.auth.callers import Scope
from app.auth.dependencies import CallerDep, require_scope
from app.kit.bodies import require_json_body
from app.kit.pagination import Page, PageParams, page_params
from app.kit.problems import problem_responses
from app.projects import service
from app.projects.dependencies import (
    InstanceSessionDep,
    ManagedProjectDep,
    ManagedSessionDep,
)
from app.projects.schemas import (
    ApiKeyCreate,
    ApiKeyCreated,
    ApiKeyRead,
    ProjectCreate,
    ProjectRead,
)

router = APIRouter(
    prefix="/v1/projects",
    tags=["projects"],
    dependencies=[require_scope(Scope.ADMIN)],
    responses=problem_responses(401, 403, 429),
)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="projects-create",
    summary="Create a project (admins of the default project)",
    responses=problem_responses(409, 422),
    dependencies=[require_json_body],
)
async def create_project(
    data: ProjectCreate, session: InstanceSessionDep, caller: CallerDep, response: Response
) -> ProjectRead:
    created = await service.create_project(session, caller, data)
    response.headers["Location"] = f"/v1/projects/{created.id}"
    return created


@router.get(
    "",
    operation_id="projects-list",
    summary="List the projects the key administers",
    responses=problem_responses(422),
)
async def list_projects(
    session: InstanceSessionDep,
    caller: CallerDep,
    page: Annotated[PageParams, Depends(page_params)],
) -> Page[ProjectRead]:
    return await service.list_projects(session, caller, limit=page.limit, cursor=page.cursor)


@router.get(
    "/{project}",
    operation_id="projects-get",
    summary="Get a project by id or name",
    responses=problem_responses(404),
)
async def get_project(project: ManagedProjectDep) -> ProjectRead:
    return service.to_read(project)


@router.post(
    "/{project}/api-keys",
    status_code=status.HTTP_201_CREATED,
    operation_id="api_keys-create",
    summary="Create an API key; the key is in this response only",
    responses=problem_responses(404, 422),
    dependencies=[require_json_body],
)
async def create_api_key(
    data: ApiKeyCreate,
    project: ManagedProjectDep,
    session: ManagedSessionDep,
    caller: CallerDep,
) -> ApiKeyCreated:
    return await service.create_key(session, caller, project, data)


@router.get(
    "/{project}/api-keys",
    operation_id="api_keys-list",
    summary="List a project's API keys (never the keys themselves)",
    responses=problem_responses(404, 422),
)
async def list_api_keys(
    project: ManagedProjectDep,
    session: ManagedSessionDep,
    page: Annotated[PageParams, Depends(page_params)],
) -> Page[ApiKeyRead]:
    return await service.list_keys(session, project, limit=page.limit, cursor=page.cursor)


@router.delete(
    "/{project}/api-keys/{key_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="api_keys-revoke",
    summary="Revoke an API key; it stops working at once",
    responses=problem_responses(404, 422),
)
async def revoke_api_key(
    key_id: uuid.UUID, project: ManagedProjectDep, session: ManagedSessionDep
) -> Response:
    await service.revoke_key(session, project, key_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
