"""The public contract of events."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

EventType = Literal[
    "knowledge_base.created",
    "knowledge_base.updated",
    "knowledge_base.deleted",
    "document.ready",
    "document.failed",
    "document.updated",
    "document.deleted",
    "source.synced",
    "source.failed",
]


class EventRead(BaseModel):
    id: int = Field(description="Unique per event; events are ordered by the feed, not by id.")
    type: EventType
    created_at: datetime
    knowledge_base_id: uuid.UUID
    subject_id: uuid.UUID = Field(description="The knowledge base or document it is about.")
    data: dict[str, Any] = Field(
        description="The subject when it happened: for documents `id`, `external_id`, "
        "`title`, `source_uri`, `status`, `error`, `chunk_count`, `embedded_count`, `format`, "
        "`metadata`; `replaced` (document.ready: the version it replaced), `changed` "
        "(document.updated: the fields a PATCH changed) and `reason` (document.deleted: "
        "`deleted`, `replaced` or `superseded`); for knowledge bases `id`, `name`, `title`; for "
        "sources (`source.synced`, `source.failed`) `id`, `name`, `kind`, `run_id`, `counts`, "
        "`error`."
    )


class EventPage(BaseModel):
    items: list[EventRead]
    next_cursor: str = Field(
        description="Pass back as `after` for the events that follow; given even when there "
        "were none, so a follower keeps its place."
    )
