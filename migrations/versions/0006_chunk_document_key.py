"""Chunks reference their document by (id, knowledge base, project): one foreign key, not three.

Each foreign key is a trigger that looks its parent up once per inserted row; three of them
cost about 50 ms of a 5,000-chunk bulk load (docs/benchmarks.md). The composite key is also
stricter: a chunk can no longer name a document of another knowledge base or project.
Knowledge bases and projects still delete their chunks, through their documents.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_unique_constraint(
        "uq_documents_id_knowledge_base_project",
        "documents",
        ["id", "knowledge_base_id", "project_id"],
    )
    op.drop_constraint("fk_chunks_project_id_projects", "chunks", type_="foreignkey")
    op.drop_constraint("fk_chunks_knowledge_base_id_knowledge_bases", "chunks", type_="foreignkey")
    op.drop_constraint("fk_chunks_document_id_documents", "chunks", type_="foreignkey")
    # NOT VALID, then VALIDATE: existing rows are checked without blocking writes meanwhile.
    op.execute(
        "ALTER TABLE chunks ADD CONSTRAINT fk_chunks_document "
        "FOREIGN KEY (document_id, knowledge_base_id, project_id) "
        "REFERENCES documents (id, knowledge_base_id, project_id) ON DELETE CASCADE NOT VALID"
    )
    op.execute("ALTER TABLE chunks VALIDATE CONSTRAINT fk_chunks_document")


def downgrade() -> None:
    op.drop_constraint("fk_chunks_document", "chunks", type_="foreignkey")
    op.create_foreign_key(
        "fk_chunks_document_id_documents",
        "chunks",
        "documents",
        ["document_id"],
        ["id"],
        ondelete="CASCADE",
    )
    op.create_foreign_key(
        "fk_chunks_knowledge_base_id_knowledge_bases",
        "chunks",
        "knowledge_bases",
        ["knowledge_base_id"],
        ["id"],
        ondelete="CASCADE",
    )
    op.create_foreign_key(
        "fk_chunks_project_id_projects",
        "chunks",
        "projects",
        ["project_id"],
        ["id"],
        ondelete="CASCADE",
    )
    op.drop_constraint("uq_documents_id_knowledge_base_project", "documents", type_="unique")
