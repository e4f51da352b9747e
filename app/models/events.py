"""Events: what happened to knowledge bases and documents (migration 0012, app/events)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, ForeignKey, Identity, Index, String, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.types import UserDefinedType

from app.models.base import Base, InProject


class Xid8(UserDefinedType[int]):
    """Postgres's 64-bit transaction id; asyncpg reads it as an int."""

    cache_ok = True

    def get_col_spec(self, **_: Any) -> str:
        return "xid8"


class Event(InProject, Base):
    __tablename__ = "events"
    __table_args__ = (
        Index("ix_events_project_position", "project_id", "txid", "id"),
        Index("ix_events_created_at", "created_at"),
        # A document's access list is copied into its events when it changes (migration 0015).
        Index("ix_events_kb_subject", "knowledge_base_id", "subject_id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, Identity(always=True), primary_key=True)
    txid: Mapped[int] = mapped_column(Xid8(), server_default=func.pg_current_xact_id())
    project_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    # Not a foreign key: a knowledge base's deletion is an event of it.
    knowledge_base_id: Mapped[uuid.UUID]
    type: Mapped[str] = mapped_column(String(40))
    subject_id: Mapped[uuid.UUID]
    # The document's access list when the event was written: who may read the event.
    access: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    data: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
