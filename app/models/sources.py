"""Knowledge sources: where documents come from, what each item was at the last sync, and runs."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Index, String, Text, UniqueConstraint, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, InProject, Timestamps, UUIDPrimaryKey


class Source(InProject, UUIDPrimaryKey, Timestamps, Base):
    __tablename__ = "sources"
    __table_args__ = (UniqueConstraint("knowledge_base_id", "name"),)

    project_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    knowledge_base_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("knowledge_bases.id", ondelete="CASCADE")
    )
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    # The kind's own fields (a folder's path and globs, an http source's URLs ...).
    config: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    access: Mapped[dict[str, Any] | None] = mapped_column(JSONB(none_as_null=True))
    metadata_: Mapped[dict[str, Any]] = mapped_column("metadata", JSONB, default=dict)
    schedule_every_s: Mapped[int | None]
    next_run_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class SourceItem(InProject, Base):
    """One item as the last sync (or push) stored it: what tells a changed item apart."""

    __tablename__ = "source_items"

    source_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("sources.id", ondelete="CASCADE"), primary_key=True
    )
    item_key: Mapped[str] = mapped_column(Text, primary_key=True)
    project_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    # The upstream version (a file's mtime and size, an ETag): equal means unchanged unread.
    version: Mapped[str | None]
    content_sha256: Mapped[str | None] = mapped_column(String(64))
    # The run that last wrote it: a resumed run does not count it twice.
    run_id: Mapped[uuid.UUID | None]
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


class SourceRun(InProject, UUIDPrimaryKey, Timestamps, Base):
    __tablename__ = "source_runs"
    __table_args__ = (Index("ix_source_runs_source_created", "source_id", "created_at"),)

    project_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    knowledge_base_id: Mapped[uuid.UUID]
    source_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("sources.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(16), default="queued")
    trigger: Mapped[str] = mapped_column(String(16), default="manual")
    dry_run: Mapped[bool] = mapped_column(default=False)
    counts: Mapped[dict[str, int]] = mapped_column(JSONB, default=dict)
    errors: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    error: Mapped[str | None]
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
