"""A partial index of failed documents: search asks whether one of them holds chunks.

A search with neither filter nor visibility limit skips looking up each candidate's document
(about 2 of 16 ms of Postgres per hybrid search over 100,000 chunks) unless a failed document
of the searched knowledge bases holds chunks, whose chunks search hides
(app/search/repository.prepare). Failed documents are few; the index answers at once.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_documents_failed",
        "documents",
        ["knowledge_base_id"],
        postgresql_where=sa.text("status = 'failed'"),
    )


def downgrade() -> None:
    op.drop_index("ix_documents_failed", table_name="documents")
