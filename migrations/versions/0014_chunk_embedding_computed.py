"""Chunks say whether the knowledge base's model computed their vector (`embedding_computed`).

Vectors are reused across knowledge bases of one project for texts already embedded by the
same model (`app/chunks/embedding.py`), looked up by text hash. A vector a client supplied
through the chunk API had the same hash as any other, so it was served to every later write
of that text (the chunk API, ingestion) as if the model had computed it. From now on only rows
marked here are reused.

Rows written before: none is marked. Ingestion wrote vectors that the cache may have handed
it from a client's chunk, so not even those are known to be the model's; the first write of
each text embeds it again, and a reindex repairs a document that took a client's vector
(docs/vector-storage.md, "Reused vectors").

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
# Search reads chunks through this view (migration 0004): `SELECT *` is expanded when the view
# is created, so a new column needs the view made again (as in 0007).
SEARCH_VIEW = (
    "VIEW arbor_tenant.chunks AS SELECT * FROM public.chunks "
    "WHERE project_id = public.arbor_project_id() "
    "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
)


def upgrade() -> None:
    # A constant default: Postgres adds the column without rewriting the table.
    op.add_column(
        "chunks",
        sa.Column("embedding_computed", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.execute(f"CREATE OR REPLACE {SEARCH_VIEW}")


def downgrade() -> None:
    op.execute("DROP VIEW arbor_tenant.chunks")
    op.drop_column("chunks", "embedding_computed")
    op.execute(f"CREATE {SEARCH_VIEW}")
    op.execute(f"GRANT SELECT ON arbor_tenant.chunks TO {APP_ROLE}")
