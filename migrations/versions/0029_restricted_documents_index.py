"""Index the documents that some caller may not read: those with an access list, or failed.

A search by a key that is not an admin first lists the documents it may not read (and the
failed ones) to skip their chunks (app/search/document_choice.py). Without this index the
listing read every document of the knowledge base, about 1 us each; through it, only those
that have an access list or failed, which are usually few.

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-27
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "CREATE INDEX IF NOT EXISTS ix_documents_restricted ON documents (knowledge_base_id) "
        "WHERE status = 'failed' OR (access IS NOT NULL AND jsonb_typeof(access) <> 'null')"
    )


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_documents_restricted")
