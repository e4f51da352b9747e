"""Documents without a tree or an access list hold SQL NULL there, never JSON null.

An import without a tree stored JSON `null` (the ORM's default for None in a JSONB column),
which SQL's `tree IS NULL` does not match: a copy of the knowledge base took such a document
for one with a tree and its ingestion failed. The columns now map None to SQL NULL; this turns
the JSON nulls already stored into SQL NULLs.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-23
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("UPDATE documents SET tree = NULL WHERE jsonb_typeof(tree) = 'null'")
    op.execute("UPDATE documents SET access = NULL WHERE jsonb_typeof(access) = 'null'")


def downgrade() -> None:
    """Nothing to undo: SQL NULL is what the older code meant too."""
