"""Chunk rows stay whole in the heap up to 8,160 bytes instead of 2,032 (`toast_tuple_target`).

Postgres moves values out of a row longer than 2,032 bytes: a 384-d vector (1,540 bytes,
pgvector's EXTERNAL storage) went to the TOAST table first, and the text and tsvector of a
full-size chunk were compressed. Every vector read outside the HNSW index (a text-only
candidate's completed similarity, the exact scan of prefiltered documents, `include=vectors`,
MMR) then cost a TOAST index lookup and a second heap read, and every full-text candidate a
decompression. perf put about 10 % of Postgres's CPU per search in `detoast_attr`. With the
target at a page's worth, a chunk row (typically 2-5 KB) is stored as it is; only rows over
8,160 bytes are toasted as before. Measured (`scripts/bench-search`, 100,000 chunks): the
filtered hybrid searches 13-17 % faster, the others within noise; table plus TOAST 252 MB ->
265 MB; bulk load speed unchanged. Applies to rows written from now on.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER TABLE chunks SET (toast_tuple_target = 8160)")


def downgrade() -> None:
    op.execute("ALTER TABLE chunks RESET (toast_tuple_target)")
