"""The public contract of audit events."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


class AuditEventRead(BaseModel):
    id: uuid.UUID
    created_at: datetime
    actor: str = Field(description="The API key's name, `ARBOR_ADMIN_KEY` or `anonymous`.")
    api_key_id: uuid.UUID | None
    operation: str = Field(description="The operation id, e.g. `search-knowledge_base`.")
    method: str
    path: str
    status: int
    target: dict[str, Any] = Field(description="The path parameters, as the caller gave them.")
    hits: int | None = Field(description="Search hits returned (searches only).")
    details: dict[str, Any] | None = Field(
        default=None,
        description="What the operation put on record: for answers the question, the sources "
        "given to the generator and the generator.",
    )
