"""Access lists stored as sets: principals sorted, without repeats.

Uploads now normalise `access.principals` (app/auth/acl.py), and an upload of the same bytes
reuses a document only when the access lists are equal: lists stored in another order, or with
a repeat, would never be equal again. This puts the stored ones in the same form.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-23
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SET_FORM = (
    "jsonb_set(access, '{principals}', coalesce((SELECT jsonb_agg(DISTINCT p ORDER BY p) "
    "FROM jsonb_array_elements_text(access -> 'principals') p), '[]'::jsonb))"
)
UPGRADE = (
    f"UPDATE documents SET access = {SET_FORM} "
    f"WHERE jsonb_typeof(access -> 'principals') = 'array' AND access IS DISTINCT FROM {SET_FORM}"
)


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    """Nothing to undo: a sorted list without repeats reads the same to the older code."""
