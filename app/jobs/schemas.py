"""The public view of a background job."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel

JobStatus = Literal["queued", "running", "succeeded", "failed", "cancelled"]


class JobRead(BaseModel):
    id: uuid.UUID
    kind: str
    status: JobStatus
    document_id: uuid.UUID | None
    attempts: int
    max_attempts: int
    last_error: str | None
    run_after: datetime
    created_at: datetime
    finished_at: datetime | None


class EmbedPendingResult(BaseModel):
    job: JobRead
    pending: int
