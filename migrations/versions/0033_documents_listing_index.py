"""Documents listed in order without sorting the whole knowledge base.

`GET .../documents` pages by (created_at, id) within a knowledge base. With an index on
`knowledge_base_id` alone, every page read and sorted all of the knowledge base's documents
(10 ms of a 5,183-document knowledge base's 11-row page; a million documents would be a
million-row sort per page). An index on (knowledge_base_id, created_at, id) reads a page in
order and stops; it also serves every lookup by knowledge base, so it replaces the index on
that column alone.

Revision ID: 0033
Revises: 0032
Create Date: 2026-11-28
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0033"
down_revision: str | None = "0032"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "CREATE INDEX ix_documents_kb_created ON documents (knowledge_base_id, created_at, id)"
    )
    op.execute("DROP INDEX ix_documents_knowledge_base_id")


def downgrade() -> None:
    op.execute("CREATE INDEX ix_documents_knowledge_base_id ON documents (knowledge_base_id)")
    op.execute("DROP INDEX ix_documents_kb_created")
