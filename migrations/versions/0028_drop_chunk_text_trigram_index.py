"""Drop the trigram index on chunk texts: search no longer reads it.

Search's trigram fallback now compares only the chunks that hold a lexeme beginning as a query
word does, found through the full-text GIN index (app/search/candidates.py, docs/search.md):
pg_trgm's index passed every chunk sharing a few of a word's trigrams and left each to a
`word_similarity` over its whole text. Nothing else reads `ix_chunks_text_trgm`, and every chunk
written paid for it (about as large as the knowledge base's HNSW index: 19 MB for SciFact's
9,897 chunks, against 6 MB for full text). The pg_trgm extension stays: the graph's indexes use
it.

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-27
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_chunks_text_trgm")


def downgrade() -> None:
    op.execute(
        "CREATE INDEX IF NOT EXISTS ix_chunks_text_trgm ON chunks USING gin (text gin_trgm_ops)"
    )
