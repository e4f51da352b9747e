"""Chunks say whether their metadata is their own: search may then decide metadata filters per
document.

A metadata filter reads a chunk's own metadata before its document's. Ingestion copies the
document's metadata into every chunk; only the chunk API gives chunks metadata of their own.
Where no chunk of a knowledge base has its own, a metadata filter can be decided on documents
first (app/search/service.py, docs/search.md); the partial index answers "does any?" at once.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
# Search reads chunks through this view (migration 0004): `SELECT *` is expanded when the view
# is created, so a new column needs the view made again.
SEARCH_VIEW = (
    "VIEW arbor_tenant.chunks AS SELECT * FROM public.chunks "
    "WHERE project_id = public.arbor_project_id() "
    "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
)


def upgrade() -> None:
    # A constant default: Postgres adds the column without rewriting the table.
    op.add_column(
        "chunks",
        sa.Column("own_metadata", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    # Chunks written before: metadata that is not a copy of their document's is their own.
    op.execute(
        "UPDATE chunks c SET own_metadata = true FROM documents d "
        "WHERE d.id = c.document_id AND c.metadata <> '{}'::jsonb AND c.metadata <> d.metadata"
    )
    op.create_index(
        "ix_chunks_own_metadata",
        "chunks",
        ["knowledge_base_id"],
        postgresql_where=sa.text("own_metadata"),
    )
    op.execute(f"CREATE OR REPLACE {SEARCH_VIEW}")


def downgrade() -> None:
    op.execute("DROP VIEW arbor_tenant.chunks")
    op.drop_index("ix_chunks_own_metadata", table_name="chunks")
    op.drop_column("chunks", "own_metadata")
    op.execute(f"CREATE {SEARCH_VIEW}")
    op.execute(f"GRANT SELECT ON arbor_tenant.chunks TO {APP_ROLE}")
