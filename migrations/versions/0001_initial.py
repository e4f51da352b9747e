"""Extensions, projects, knowledge bases, documents and chunks.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from pgvector.sqlalchemy import VECTOR
from sqlalchemy.dialects import postgresql as pg

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _timestamps() -> list[sa.Column[object]]:
    return [
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column(
            "updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    ]


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")

    op.create_table(
        "projects",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("description", sa.String(), nullable=False, server_default=""),
        *_timestamps(),
        sa.PrimaryKeyConstraint("id", name="pk_projects"),
        sa.UniqueConstraint("name", name="uq_projects_name"),
    )
    op.execute(
        "INSERT INTO projects (id, name, description) "
        "VALUES (gen_random_uuid(), 'default', 'The project that always exists')"
    )

    op.create_table(
        "knowledge_bases",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("project_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("title", sa.String(), nullable=False),
        sa.Column("description", sa.String(), nullable=False, server_default=""),
        sa.Column("embedding_provider", sa.String(32), nullable=False),
        sa.Column("embedding_model", sa.String(), nullable=False),
        sa.Column("embedding_dimensions", sa.Integer(), nullable=False),
        sa.Column("embedding_variant", sa.String(16), nullable=False),
        sa.Column("embedding_options", pg.JSONB(), nullable=False, server_default="{}"),
        sa.Column("chunking", pg.JSONB(), nullable=False, server_default="{}"),
        sa.Column("text_search_language", sa.String(32), nullable=False, server_default="english"),
        sa.Column("hnsw_m", sa.Integer(), nullable=False, server_default="16"),
        sa.Column("hnsw_ef_construction", sa.Integer(), nullable=False, server_default="64"),
        *_timestamps(),
        sa.PrimaryKeyConstraint("id", name="pk_knowledge_bases"),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            ondelete="CASCADE",
            name="fk_knowledge_bases_project_id_projects",
        ),
        sa.UniqueConstraint("project_id", "name", name="uq_knowledge_bases_project_id_name"),
        sa.CheckConstraint(
            "embedding_dimensions BETWEEN 1 AND 16000", name="ck_knowledge_bases_dimensions_range"
        ),
    )
    op.create_index("ix_knowledge_bases_project_id", "knowledge_bases", ["project_id"])

    op.create_table(
        "documents",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("project_id", sa.Uuid(), nullable=False),
        sa.Column("knowledge_base_id", sa.Uuid(), nullable=False),
        sa.Column("title", sa.String(), nullable=False, server_default=""),
        sa.Column("external_id", sa.String(), nullable=True),
        sa.Column("source_uri", sa.String(), nullable=True),
        sa.Column("filename", sa.String(), nullable=True),
        sa.Column("format", sa.String(16), nullable=True),
        sa.Column("content_sha256", sa.String(64), nullable=True),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("metadata", pg.JSONB(), nullable=False, server_default="{}"),
        sa.Column("access", pg.JSONB(), nullable=True),
        sa.Column("tree", pg.JSONB(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False, server_default="queued"),
        sa.Column("error", sa.String(), nullable=True),
        sa.Column("chunk_count", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("embedded_count", sa.Integer(), nullable=False, server_default="0"),
        *_timestamps(),
        sa.PrimaryKeyConstraint("id", name="pk_documents"),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            ondelete="CASCADE",
            name="fk_documents_project_id_projects",
        ),
        sa.ForeignKeyConstraint(
            ["knowledge_base_id"],
            ["knowledge_bases.id"],
            ondelete="CASCADE",
            name="fk_documents_knowledge_base_id_knowledge_bases",
        ),
    )
    op.create_index("ix_documents_project_id", "documents", ["project_id"])
    op.create_index("ix_documents_knowledge_base_id", "documents", ["knowledge_base_id"])
    op.create_index("ix_documents_kb_sha", "documents", ["knowledge_base_id", "content_sha256"])
    op.create_index(
        "uq_documents_kb_external_id",
        "documents",
        ["knowledge_base_id", "external_id"],
        unique=True,
        postgresql_where=sa.text("external_id IS NOT NULL"),
    )

    op.create_table(
        "chunks",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("project_id", sa.Uuid(), nullable=False),
        sa.Column("knowledge_base_id", sa.Uuid(), nullable=False),
        sa.Column("document_id", sa.Uuid(), nullable=False),
        sa.Column("chunk_index", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("text_sha256", sa.String(64), nullable=False),
        sa.Column("node_path", pg.ARRAY(sa.String()), nullable=False, server_default="{}"),
        sa.Column("depth", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("leaf_node_id", sa.String(), nullable=True),
        sa.Column("section_titles", pg.ARRAY(sa.String()), nullable=False, server_default="{}"),
        sa.Column("doc_title", sa.String(), nullable=False, server_default=""),
        sa.Column("page_start", sa.Integer(), nullable=True),
        sa.Column("page_end", sa.Integer(), nullable=True),
        sa.Column("start_offset", sa.Integer(), nullable=True),
        sa.Column("end_offset", sa.Integer(), nullable=True),
        sa.Column("metadata", pg.JSONB(), nullable=False, server_default="{}"),
        sa.Column("embedding", VECTOR(), nullable=True),
        sa.Column("embedded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ts_config", pg.REGCONFIG(), nullable=False, server_default="english"),
        sa.Column(
            "tsv",
            pg.TSVECTOR(),
            sa.Computed(
                "to_tsvector(ts_config, coalesce(doc_title, '') || ' ' || text)", persisted=True
            ),
        ),
        *_timestamps(),
        sa.PrimaryKeyConstraint("id", name="pk_chunks"),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            ondelete="CASCADE",
            name="fk_chunks_project_id_projects",
        ),
        sa.ForeignKeyConstraint(
            ["knowledge_base_id"],
            ["knowledge_bases.id"],
            ondelete="CASCADE",
            name="fk_chunks_knowledge_base_id_knowledge_bases",
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            ondelete="CASCADE",
            name="fk_chunks_document_id_documents",
        ),
    )
    op.create_index("ix_chunks_project_id", "chunks", ["project_id"])
    op.create_index("ix_chunks_knowledge_base_id", "chunks", ["knowledge_base_id"])
    op.create_index("ix_chunks_document", "chunks", ["document_id", "chunk_index"])
    op.create_index("ix_chunks_tsv", "chunks", ["tsv"], postgresql_using="gin")
    op.create_index(
        "ix_chunks_text_trgm",
        "chunks",
        ["text"],
        postgresql_using="gin",
        postgresql_ops={"text": "gin_trgm_ops"},
    )


def downgrade() -> None:
    op.drop_table("chunks")
    op.drop_table("documents")
    op.drop_table("knowledge_bases")
    op.drop_table("projects")
