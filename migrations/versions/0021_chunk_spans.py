"""Chunk spans: the sections a merged chunk covers.

Hierarchical chunking merges sections too small to stand alone into one chunk, whose lineage
can only name their common ancestor. `spans` keeps each merged part's own lineage and range
(`[{node_path, section_titles, start, end}]`); NULL for every other chunk.

Revision ID: 0021
Revises: 0017
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0021"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


APP_ROLE = "arbor_app"
# Search reads chunks through this view (migration 0004): `SELECT *` is expanded when the view
# is created, so a new column needs the view made again (as in 0007 and 0014).
SEARCH_VIEW = (
    "VIEW arbor_tenant.chunks AS SELECT * FROM public.chunks "
    "WHERE project_id = public.arbor_project_id() "
    "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
)


def upgrade() -> None:
    # Nullable without a default: adding it rewrites nothing, whatever the table's size.
    op.add_column("chunks", sa.Column("spans", postgresql.JSONB(), nullable=True))
    op.execute(f"CREATE OR REPLACE {SEARCH_VIEW}")


def downgrade() -> None:
    op.execute("DROP VIEW arbor_tenant.chunks")
    op.drop_column("chunks", "spans")
    op.execute(f"CREATE {SEARCH_VIEW}")
    op.execute(f"GRANT SELECT ON arbor_tenant.chunks TO {APP_ROLE}")
