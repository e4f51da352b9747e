"""Knowledge bases: a named corpus with a fixed embedding model, scoped to one project."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import BigInteger, ForeignKey, SmallInteger, String, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, InProject, Timestamps, UUIDPrimaryKey


class KnowledgeBase(InProject, UUIDPrimaryKey, Timestamps, Base):
    __tablename__ = "knowledge_bases"
    __table_args__ = (UniqueConstraint("project_id", "name"),)

    project_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    title: Mapped[str]
    description: Mapped[str] = mapped_column(default="")
    embedding_provider: Mapped[str] = mapped_column(String(32))
    embedding_model: Mapped[str]
    embedding_dimensions: Mapped[int]
    # int8 / fp32 for the local model: stored vectors and queries must come from the same one.
    embedding_variant: Mapped[str] = mapped_column(String(16))
    # Non-secret provider options (base_url, the *name* of the env var that holds the key).
    embedding_options: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    chunking: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    text_search_language: Mapped[str] = mapped_column(String(32), default="english")
    hnsw_m: Mapped[int] = mapped_column(default=16)
    hnsw_ef_construction: Mapped[int] = mapped_column(default=64)
    # Opt-in enrichment and knowledge graph (app/graph): `{}` means off, so ingestion of a
    # knowledge base without them never reaches the graph stage.
    enrichment: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default="{}")
    graph: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default="{}")


class KnowledgeBaseTally(InProject, Base):
    """A share of a knowledge base's document and chunk counts, written only by the triggers
    of migration 0032: each connection adds to its own slot, and the counts are the sums."""

    __tablename__ = "knowledge_base_tallies"

    knowledge_base_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("knowledge_bases.id", ondelete="CASCADE"), primary_key=True
    )
    slot: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    project_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    documents: Mapped[int] = mapped_column(BigInteger, default=0)
    chunks: Mapped[int] = mapped_column(BigInteger, default=0)
