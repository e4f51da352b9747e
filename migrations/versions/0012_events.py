"""Events: what happened to knowledge bases and documents, for clients to follow.

A document becomes ready or fails in the background, so a client had to poll each document to
learn it; `GET /v1/events` reads this table instead (app/events). Rows are written in the
transaction that makes the change, so an event exists if and only if its change committed.

`txid` orders the feed: an event becomes readable once every transaction that could still
insert an earlier one has ended (below the snapshot's xmin), so a reader's cursor never passes
an event that commits later. No foreign key to knowledge bases: their deletion is an event too.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-23
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
TENANT = (
    "project_id = public.arbor_project_id() "
    "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
)


def upgrade() -> None:
    op.execute(
        "CREATE TABLE events ("
        "id bigint GENERATED ALWAYS AS IDENTITY, "
        "txid xid8 NOT NULL DEFAULT pg_current_xact_id(), "
        "project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE, "
        "knowledge_base_id uuid NOT NULL, "
        "type varchar(40) NOT NULL, "
        "subject_id uuid NOT NULL, "
        "access jsonb, "
        "data jsonb NOT NULL DEFAULT '{}', "
        "created_at timestamptz NOT NULL DEFAULT now(), "
        "CONSTRAINT pk_events PRIMARY KEY (id))"
    )
    op.execute("CREATE INDEX ix_events_project_position ON events (project_id, txid, id)")
    op.execute("CREATE INDEX ix_events_created_at ON events (created_at)")
    op.execute("ALTER TABLE events ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE events FORCE ROW LEVEL SECURITY")
    op.execute(
        f"CREATE POLICY arbor_tenant ON events TO {APP_ROLE} USING ({TENANT}) WITH CHECK ({TENANT})"
    )
    op.execute("CREATE POLICY arbor_owner ON events TO CURRENT_USER USING (true)")


def downgrade() -> None:
    op.execute("DROP TABLE events")
