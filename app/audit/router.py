"""HTTP routes for the audit log (admin scope)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from app.audit import service
from app.audit.schemas import AuditEventRead
from app.auth.callers import Scope
from app.auth.dependencies import require_scope
from app.db.dependencies import SessionDep, replica_read
from app.kit.pagination import Page, PageParams, page_params
from app.kit.problems import problem_responses
from app.projects.dependencies import ProjectDep

router = APIRouter(
    prefix="/v1/audit",
    tags=["audit"],
    dependencies=[require_scope(Scope.ADMIN)],
    responses=problem_responses(401, 403, 429),
)


@router.get(
    "",
    operation_id="audit-list",
    summary="The project's searches and writes, newest first",
    responses=problem_responses(422),
)
@replica_read
async def list_audit_events(
    session: SessionDep,
    project: ProjectDep,
    page: Annotated[PageParams, Depends(page_params)],
    operation: Annotated[
        str | None, Query(max_length=100, description="Only this operation id.")
    ] = None,
) -> Page[AuditEventRead]:
    return await service.list_page(
        session, project_id=project.id, operation=operation, limit=page.limit, cursor=page.cursor
    )
