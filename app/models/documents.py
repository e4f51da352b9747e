"""Documents: the parsed tree (JSONB) and the ingestion state of one uploaded source."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, InProject, Timestamps, UUIDPrimaryKey


class Document(InProject, UUIDPrimaryKey, Timestamps, Base):
    __tablename__ = "documents"
    __table_args__ = (
        # Listing pages in (created_at, id) order; every lookup by knowledge base (0033).
        Index("ix_documents_kb_created", "knowledge_base_id", "created_at", "id"),
        Index("ix_documents_kb_sha", "knowledge_base_id", "content_sha256"),
        # Search asks whether a failed document holds chunks (migration 0009).
        Index("ix_documents_failed", "knowledge_base_id", postgresql_where="status = 'failed'"),
        Index(
            "uq_documents_kb_external_id",
            "knowledge_base_id",
            "external_id",
            unique=True,
            postgresql_where="external_id IS NOT NULL",
        ),
        Index(
            "ix_documents_source",
            "source_id",
            "source_record_id",
            postgresql_where="source_id IS NOT NULL",
        ),
    )

    project_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    knowledge_base_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("knowledge_bases.id", ondelete="CASCADE")
    )
    title: Mapped[str] = mapped_column(default="")
    external_id: Mapped[str | None]
    source_uri: Mapped[str | None]
    filename: Mapped[str | None]
    format: Mapped[str | None] = mapped_column(String(16))
    content_sha256: Mapped[str | None] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(default=0)
    metadata_: Mapped[dict[str, Any]] = mapped_column("metadata", JSONB, default=dict)
    # None is SQL NULL, not JSON null: SQL asks `tree IS NULL` (a document without a tree).
    access: Mapped[dict[str, Any] | None] = mapped_column(JSONB(none_as_null=True))
    # Deferred, and an error to read unloaded: a tree is several times its document's text
    # (a 2 MB upload's is 16 MB of JSON), so a read that loaded it with every document row
    # took 450 ms to answer a document's status. The tree's own routes load it by name
    # (`repository.by_ref(..., with_tree=True)`, `repository.load_tree`).
    tree: Mapped[dict[str, Any] | None] = mapped_column(
        JSONB(none_as_null=True), deferred=True, deferred_raiseload=True
    )
    status: Mapped[str] = mapped_column(String(16), default="queued")
    error: Mapped[str | None]
    chunk_count: Mapped[int] = mapped_column(default=0)
    embedded_count: Mapped[int] = mapped_column(default=0)
    progress: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    # The knowledge source that wrote it and its item there (app/sources); NULL for uploads.
    source_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("sources.id", ondelete="SET NULL")
    )
    source_record_id: Mapped[str | None]
