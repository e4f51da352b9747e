"""Chunks: retrievable slices of a document with their lineage, vector and tsvector."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pgvector.sqlalchemy import VECTOR
from sqlalchemy import Computed, DateTime, ForeignKeyConstraint, Index, String, Text, false
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, REGCONFIG, TSVECTOR
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, InProject, Timestamps


class Chunk(InProject, Timestamps, Base):
    __tablename__ = "chunks"
    __table_args__ = (
        # The document by id alone, so the per-row check can only use its primary key; a
        # statement trigger checks the knowledge base and project (migration 0008).
        ForeignKeyConstraint(
            ["document_id"], ["documents.id"], name="fk_chunks_document_id", ondelete="CASCADE"
        ),
        Index("ix_chunks_document", "document_id", "chunk_index"),
        Index(
            "ix_chunks_own_metadata",
            "knowledge_base_id",
            postgresql_where=sql_text("own_metadata"),
        ),
        Index("ix_chunks_tsv", "tsv", postgresql_using="gin"),
        # Sixteen partitions (migration 0030): a statement naming its knowledge base is planned
        # on one, with a sixteenth of the knowledge bases' HNSW indexes (docs/scaling.md).
        {"postgresql_partition_by": "HASH (knowledge_base_id)"},
    )

    # Unique within the knowledge base: a partitioned table's key holds the partition column.
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    project_id: Mapped[uuid.UUID] = mapped_column()
    knowledge_base_id: Mapped[uuid.UUID] = mapped_column(primary_key=True, index=True)
    document_id: Mapped[uuid.UUID]
    chunk_index: Mapped[int] = mapped_column(default=0)
    text: Mapped[str] = mapped_column(Text)
    text_sha256: Mapped[str] = mapped_column(String(64))
    node_path: Mapped[list[str]] = mapped_column(ARRAY(String), default=list)
    depth: Mapped[int] = mapped_column(default=0)
    leaf_node_id: Mapped[str | None]
    section_titles: Mapped[list[str]] = mapped_column(ARRAY(String), default=list)
    doc_title: Mapped[str] = mapped_column(default="")
    page_start: Mapped[int | None]
    page_end: Mapped[int | None]
    start_offset: Mapped[int | None]
    end_offset: Mapped[int | None]
    # The merged sections of a hierarchical chunk (app/ingestion/chunking/base.py ChunkSpan);
    # NULL for a chunk of one section.
    spans: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONB)
    metadata_: Mapped[dict[str, Any]] = mapped_column("metadata", JSONB, default=dict)
    # Set by the chunk API when it is given metadata; ingestion copies the document's.
    own_metadata: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Dimension-less column: each knowledge base has its own dimension and its own partial
    # HNSW index on an expression cast (see docs/vector-storage.md).
    embedding: Mapped[list[float] | None] = mapped_column(VECTOR())
    embedded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The knowledge base's model computed `embedding` (not a client): only such vectors are
    # reused for the same text (app/chunks/embedding.py, migration 0014).
    embedding_computed: Mapped[bool] = mapped_column(default=False, server_default=false())
    ts_config: Mapped[str] = mapped_column(REGCONFIG, default="english")
    tsv: Mapped[Any] = mapped_column(
        TSVECTOR,
        Computed("to_tsvector(ts_config, coalesce(doc_title, '') || ' ' || text)", persisted=True),
    )
