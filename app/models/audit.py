"""Audit events: who searched or wrote what, when, with which outcome."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Index, String, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, InProject, UUIDPrimaryKey


class AuditEvent(InProject, UUIDPrimaryKey, Base):
    __tablename__ = "audit_events"
    __table_args__ = (Index("ix_audit_events_project_time", "project_id", "created_at", "id"),)

    project_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    # Not a foreign key: the event outlives the key it names.
    api_key_id: Mapped[uuid.UUID | None]
    actor: Mapped[str] = mapped_column(String(100))
    operation: Mapped[str] = mapped_column(String(100))
    method: Mapped[str] = mapped_column(String(10))
    path: Mapped[str] = mapped_column(String(2000))
    status: Mapped[int]
    # Path parameters as the caller gave them (knowledge base, document, project, key).
    target: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    hits: Mapped[int | None]
    # What the operation put on record beyond its path (answers: question, sources, generator).
    details: Mapped[dict[str, Any] | None] = mapped_column(JSONB, nullable=True)
