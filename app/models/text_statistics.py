"""Per-knowledge-base full-text statistics: document frequencies of its common lexemes."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, InProject


class TextStatistics(InProject, Base):
    __tablename__ = "text_statistics"

    knowledge_base_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("knowledge_bases.id", ondelete="CASCADE"), primary_key=True
    )
    project_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    # Chunks counted at refresh time, and the document frequency from which a lexeme is kept.
    chunk_count: Mapped[int]
    min_df: Mapped[int]
    # lexeme -> number of chunks holding it, for every lexeme with df >= min_df.
    frequencies: Mapped[dict[str, int]] = mapped_column(JSONB, default=dict)
    refreshed_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
