"""Search analytics rows and retrieval evaluations (migration 0020)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Index, String, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, InProject, Timestamps, UUIDPrimaryKey


class SearchQuery(InProject, UUIDPrimaryKey, Base):
    """One search of one knowledge base, as analytics keep it."""

    __tablename__ = "search_queries"
    __table_args__ = (
        Index("ix_search_queries_kb_time", "knowledge_base_id", "created_at"),
        Index("ix_search_queries_created_at", "created_at"),
    )

    project_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    knowledge_base_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("knowledge_bases.id", ondelete="CASCADE")
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    # None: ARBOR_ANALYTICS_TEXT=off, or a search by vector only.
    query: Mapped[str | None]
    mode: Mapped[str] = mapped_column(String(8))
    hits: Mapped[int]
    top_score: Mapped[float | None]
    latency_ms: Mapped[float]


class Evaluation(InProject, UUIDPrimaryKey, Timestamps, Base):
    """A judged query set run through search under several configurations."""

    __tablename__ = "evaluations"
    __table_args__ = (Index("ix_evaluations_kb_time", "knowledge_base_id", "created_at", "id"),)

    project_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    knowledge_base_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("knowledge_bases.id", ondelete="CASCADE")
    )
    job_id: Mapped[uuid.UUID | None]
    name: Mapped[str | None] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16), default="queued")
    # The poster's document access: {"principals": [...]}, or None for every document (admin).
    access: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    # queries, qrels, configurations as posted (normalised).
    request: Mapped[dict[str, Any]] = mapped_column(JSONB)
    results: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    error: Mapped[str | None]
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
