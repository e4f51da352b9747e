"""Webhooks: where a project's events are pushed, and how far delivery has got (migration 0013)."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, String, func
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, InProject, Timestamps, UUIDPrimaryKey
from app.models.events import Xid8


class Webhook(InProject, UUIDPrimaryKey, Timestamps, Base):
    __tablename__ = "webhooks"
    __table_args__ = (Index("ix_webhooks_due", "next_attempt_at", postgresql_where="active"),)

    project_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), index=True
    )
    url: Mapped[str] = mapped_column(String(2000))
    # `whsec_` + base64: kept as such because every delivery is signed with it.
    secret: Mapped[str] = mapped_column(String(100))
    # None: every event type.
    types: Mapped[list[str] | None] = mapped_column(ARRAY(String(40)))
    # Not a foreign key, as in `events`: the knowledge base's deletion is still delivered.
    knowledge_base_id: Mapped[uuid.UUID | None]
    description: Mapped[str] = mapped_column(default="")
    active: Mapped[bool] = mapped_column(default=True)
    # The feed position (txid, id) past which events are still to be delivered.
    # A new webhook starts where the oldest running transaction began: nothing committed
    # before its creation is replayed, nothing committed after is missed (docs/webhooks.md).
    cursor_txid: Mapped[int] = mapped_column(
        Xid8(), server_default=func.pg_snapshot_xmin(func.pg_current_snapshot())
    )
    cursor_id: Mapped[int] = mapped_column(BigInteger, server_default="0")
    last_event_id: Mapped[int | None] = mapped_column(BigInteger)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Failed attempts in a row; the next one waits 2**attempts retry periods (capped).
    attempts: Mapped[int] = mapped_column(default=0)
    # When the dispatcher looks next (after a failure: the retry time).
    next_attempt_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    # A delivery under way holds the webhook until then. Apart from `next_attempt_at`, which a
    # PATCH resets to now: that must not let a second dispatcher send beside the first.
    leased_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    failing_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_status: Mapped[int | None]
    last_error: Mapped[str | None]
