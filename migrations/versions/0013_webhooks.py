"""Webhooks: the event feed pushed to a URL, signed, in order, retried (app/webhooks).

Each webhook keeps its own position in the feed (`cursor_txid`, `cursor_id`, the feed's order)
and its delivery state; the dispatcher claims due rows with SKIP LOCKED and leases them
(`leased_until`, apart from `next_attempt_at` so that a PATCH making a webhook due at once
cannot hand a delivery under way to a second dispatcher). A new webhook starts
at the feed's current end (the oldest running transaction), so it never replays history. No
foreign key to knowledge bases, as in `events`: a knowledge base's deletion is delivered too.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-24
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
TENANT = "project_id = public.arbor_project_id()"


def upgrade() -> None:
    op.execute(
        "CREATE TABLE webhooks ("
        "id uuid NOT NULL, "
        "project_id uuid NOT NULL, "
        "url varchar(2000) NOT NULL, "
        "secret varchar(100) NOT NULL, "
        "types varchar(40)[], "
        "knowledge_base_id uuid, "
        "description varchar NOT NULL DEFAULT '', "
        "active boolean NOT NULL DEFAULT true, "
        "cursor_txid xid8 NOT NULL DEFAULT pg_snapshot_xmin(pg_current_snapshot()), "
        "cursor_id bigint NOT NULL DEFAULT 0, "
        "last_event_id bigint, "
        "delivered_at timestamptz, "
        "attempts integer NOT NULL DEFAULT 0, "
        "next_attempt_at timestamptz NOT NULL DEFAULT now(), "
        "leased_until timestamptz, "
        "failing_since timestamptz, "
        "last_status integer, "
        "last_error varchar, "
        "created_at timestamptz NOT NULL DEFAULT now(), "
        "updated_at timestamptz NOT NULL DEFAULT now(), "
        "CONSTRAINT pk_webhooks PRIMARY KEY (id), "
        "CONSTRAINT fk_webhooks_project_id_projects FOREIGN KEY (project_id) "
        "REFERENCES projects (id) ON DELETE CASCADE)"
    )
    op.execute("CREATE INDEX ix_webhooks_project_id ON webhooks (project_id)")
    op.execute("CREATE INDEX ix_webhooks_due ON webhooks (next_attempt_at) WHERE active")
    op.execute("ALTER TABLE webhooks ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE webhooks FORCE ROW LEVEL SECURITY")
    op.execute(
        f"CREATE POLICY arbor_tenant ON webhooks TO {APP_ROLE} "
        f"USING ({TENANT}) WITH CHECK ({TENANT})"
    )
    op.execute("CREATE POLICY arbor_owner ON webhooks TO CURRENT_USER USING (true)")


def downgrade() -> None:
    op.execute("DROP TABLE webhooks")
