"""HTTP routes for webhooks (admin scope): where the project's events are pushed."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Response, status

from app.auth.callers import Scope
from app.auth.dependencies import require_scope
from app.db.dependencies import SessionDep
from app.kit.bodies import require_json_body
from app.kit.pagination import Page, PageParams, page_params
from app.kit.problems import problem_responses
from app.projects.dependencies import ProjectDep
from app.webhooks import service
from app.webhooks.dependencies import SettingsDep, WebhookDep
from app.webhooks.schemas import WebhookCreate, WebhookRead, WebhookUpdate, WebhookWithSecret

router = APIRouter(
    prefix="/v1/webhooks",
    tags=["webhooks"],
    dependencies=[require_scope(Scope.ADMIN)],
    responses=problem_responses(401, 403, 429),
)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="webhooks-create",
    summary="Push the project's events to a URL; the signing secret is in this response only",
    description="From its creation on, every event of the project (or of `types` and "
    "`knowledge_base_id`) is POSTed to `url` as the event feed shows it, one per request, in "
    "feed order, signed per the Standard Webhooks specification and retried until accepted "
    "(docs/webhooks.md).",
    responses=problem_responses(422),
    dependencies=[require_json_body],
)
async def create_webhook(
    data: WebhookCreate,
    session: SessionDep,
    project: ProjectDep,
    settings: SettingsDep,
    response: Response,
) -> WebhookWithSecret:
    created = await service.create(session, settings, project_id=project.id, data=data)
    response.headers["Location"] = f"/v1/webhooks/{created.id}"
    return created


@router.get(
    "",
    operation_id="webhooks-list",
    summary="List the project's webhooks and their delivery state",
    responses=problem_responses(422),
)
async def list_webhooks(
    session: SessionDep,
    project: ProjectDep,
    page: Annotated[PageParams, Depends(page_params)],
) -> Page[WebhookRead]:
    return await service.list_page(
        session, project_id=project.id, limit=page.limit, cursor=page.cursor
    )


@router.get(
    "/{webhook_id}",
    operation_id="webhooks-get",
    summary="Get a webhook and its delivery state",
    responses=problem_responses(404, 422),
)
async def get_webhook(webhook: WebhookDep) -> WebhookRead:
    return service.to_read(webhook)


@router.patch(
    "/{webhook_id}",
    operation_id="webhooks-update",
    summary="Change a webhook; `active: true` resumes delivery where it stopped",
    responses=problem_responses(404, 422),
    dependencies=[require_json_body],
)
async def update_webhook(
    data: WebhookUpdate, webhook: WebhookDep, session: SessionDep, settings: SettingsDep
) -> WebhookRead:
    return await service.update(session, settings, webhook, data)


@router.delete(
    "/{webhook_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="webhooks-delete",
    summary="Delete a webhook; nothing more is sent to it",
    responses=problem_responses(404, 422),
)
async def delete_webhook(webhook: WebhookDep, session: SessionDep) -> Response:
    await service.delete(session, webhook)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/{webhook_id}/rotate-secret",
    operation_id="webhooks-rotate_secret",
    summary="Replace the signing secret; the new one is in this response only",
    responses=problem_responses(404, 422),
)
async def rotate_webhook_secret(webhook: WebhookDep, session: SessionDep) -> WebhookWithSecret:
    return await service.rotate_secret(session, webhook)
