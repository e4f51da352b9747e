"""API keys: hashed secrets with a project, scopes and optional limits."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String, Uuid
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, Timestamps, UUIDPrimaryKey


class ApiKey(UUIDPrimaryKey, Timestamps, Base):
    __tablename__ = "api_keys"

    project_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(100))
    # The public part of the key (`arb_` + 12 characters): found by it, then the hash compared.
    prefix: Mapped[str] = mapped_column(String(16), unique=True)
    key_sha256: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[list[str]] = mapped_column(ARRAY(String(16)))
    # None: every knowledge base of the project.
    knowledge_base_ids: Mapped[list[uuid.UUID] | None] = mapped_column(ARRAY(Uuid()))
    principals: Mapped[list[str]] = mapped_column(ARRAY(String(256)), default=list)
    delegate: Mapped[bool] = mapped_column(default=False)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_by: Mapped[str] = mapped_column(String(100), default="")
