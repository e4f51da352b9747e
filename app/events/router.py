"""HTTP route of the event feed (read scope)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Query

from app.auth.acl import visible_access_clause
from app.auth.callers import Scope
from app.auth.dependencies import CallerDep, require_scope
from app.db.dependencies import DatabaseDep
from app.events import service
from app.events.schemas import EventPage, EventType
from app.kit.problems import problem_responses
from app.models import Event

router = APIRouter(
    prefix="/v1/events",
    tags=["events"],
    dependencies=[require_scope(Scope.READ)],
    responses=problem_responses(401, 403, 429),
)


@router.get(
    "",
    operation_id="events-follow",
    summary="What happened to knowledge bases and documents, in order; can wait for more",
    description="Events of the caller's project in the order their changes committed: "
    "`document.ready`, `document.failed`, `document.updated`, `document.deleted`, "
    "`knowledge_base.created`, `.updated`, `.deleted`. Start without `after` (the oldest "
    "kept event) and pass each page's `next_cursor` back as `after`: a follower sees every "
    "event once, in order. With `wait`, the request returns as soon as there is an event, or "
    "after `wait` seconds with none (long polling). Only events of knowledge bases the key "
    "may use and of documents the caller may read.",
    responses=problem_responses(422),
)
async def follow_events(
    caller: CallerDep,
    database: DatabaseDep,
    after: Annotated[
        str | None, Query(max_length=512, description="`next_cursor` of the previous page.")
    ] = None,
    type_: Annotated[
        list[EventType] | None, Query(alias="type", description="Only these types.")
    ] = None,
    knowledge_base_id: Annotated[
        uuid.UUID | None, Query(description="Only this knowledge base's events.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500, description="Events per page.")] = 100,
    wait: Annotated[
        float, Query(ge=0, le=60, description="Seconds to wait for a first event.")
    ] = 0,
) -> EventPage:
    return await service.follow(
        database,
        project_id=caller.project.id,
        knowledge_bases=caller.knowledge_bases,
        visible=visible_access_clause(Event.__table__.c.access, caller.principals),
        after=after,
        types=type_ or (),
        knowledge_base_id=knowledge_base_id,
        limit=limit,
        wait_s=wait,
    )
