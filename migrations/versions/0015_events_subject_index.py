"""An index of events by knowledge base and subject.

A document's access list, changed by `PATCH .../documents/{doc}`, is copied into every event
of that document (who may read a document is who may read what happened to it); without an
index the update read all of the knowledge base's kept events.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-23
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_events_kb_subject", "events", ["knowledge_base_id", "subject_id"])


def downgrade() -> None:
    op.drop_index("ix_events_kb_subject", table_name="events")
