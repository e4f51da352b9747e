"""Per-knowledge-base text statistics: the document frequency of every lexeme not rare.

Search uses them to keep very common terms from defining the full-text candidate set (they
still score); see app/search/text_statistics.py and docs/search.md.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql as pg

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
VISIBLE = (
    "project_id = public.arbor_project_id() "
    "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
)


def upgrade() -> None:
    op.create_table(
        "text_statistics",
        sa.Column("knowledge_base_id", sa.Uuid(), nullable=False),
        sa.Column("project_id", sa.Uuid(), nullable=False),
        sa.Column("chunk_count", sa.Integer(), nullable=False),
        sa.Column("min_df", sa.Integer(), nullable=False),
        sa.Column("frequencies", pg.JSONB(), nullable=False, server_default="{}"),
        sa.Column(
            "refreshed_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.ForeignKeyConstraint(
            ["knowledge_base_id"],
            ["knowledge_bases.id"],
            name="fk_text_statistics_knowledge_base_id_knowledge_bases",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name="fk_text_statistics_project_id_projects",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("knowledge_base_id", name="pk_text_statistics"),
    )
    op.execute("ALTER TABLE text_statistics ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE text_statistics FORCE ROW LEVEL SECURITY")
    op.execute(
        f"CREATE POLICY arbor_tenant ON text_statistics TO {APP_ROLE} "
        f"USING ({VISIBLE}) WITH CHECK ({VISIBLE})"
    )
    op.execute("CREATE POLICY arbor_owner ON text_statistics TO CURRENT_USER USING (true)")


def downgrade() -> None:
    op.drop_table("text_statistics")
