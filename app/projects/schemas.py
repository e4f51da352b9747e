"""The public contract of projects and API keys."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, Field

from app.auth.acl import MAX_PRINCIPALS, Principal
from app.auth.callers import Scope
from app.kit.schemas import RequestModel
from app.kit.strings import StoredText
from app.knowledge_bases.schemas import NAME_PATTERN, NAME_RULE, NotAnId

ProjectName = Annotated[
    str,
    Field(
        min_length=1, max_length=64, pattern=NAME_PATTERN, description=NAME_RULE, examples=["acme"]
    ),
    NotAnId,
]


class ProjectCreate(RequestModel):
    name: ProjectName
    description: StoredText = Field(default="", max_length=4000)


class ProjectRead(BaseModel):
    id: uuid.UUID
    name: str
    description: str
    created_at: datetime


class ApiKeyCreate(RequestModel):
    name: StoredText = Field(min_length=1, max_length=100, examples=["search-gateway"])
    scopes: list[Scope] = Field(
        min_length=1,
        description="`read`: list, get and search. `write`: also upload, update and delete. "
        "`admin`: also manage the project's keys (in project `default`: every project).",
    )
    knowledge_bases: list[StoredText] | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="Limit the key to these knowledge bases (ids or names); others answer 404.",
    )
    principals: list[Principal] = Field(
        default_factory=list,
        max_length=MAX_PRINCIPALS,
        description="Whom the key reads documents as: documents with an `access` list are "
        "visible when it names one of these. Admin keys read every document.",
    )
    delegate: bool = Field(
        default=False,
        description="May set `X-Arbor-Principals` to read as another user (gateways).",
    )
    expires_at: AwareDatetime | None = Field(
        default=None, description="When the key stops working."
    )


class ApiKeyRead(BaseModel):
    id: uuid.UUID
    project_id: uuid.UUID
    name: str
    prefix: str = Field(description="The key's first characters, to recognise it.")
    scopes: list[Scope]
    knowledge_bases: list[uuid.UUID] | None
    principals: list[str]
    delegate: bool
    expires_at: datetime | None
    revoked_at: datetime | None
    status: Literal["active", "expired", "revoked"]
    created_by: str
    created_at: datetime


class ApiKeyCreated(ApiKeyRead):
    key: str = Field(description="The key itself. Shown only in this response; store it now.")
