"""When each housekeeping loop last ran, shared by every process on the database.

Every `arbor serve` and `arbor worker` process runs the same pruning, index-upkeep and
schedule loops. A round now claims the loop's row (under an advisory lock, so two processes
are never in one loop at once) and runs only when the last round anywhere started a period
ago: N processes run each sweep once per period between them, not N times
(app/kit/periodic.py, docs/scaling.md). The row also tells an operator where and when a
sweep last ran. Only the service's own connections touch it: no row-level security.

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-26
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "CREATE TABLE periodic_runs ("
        "name text NOT NULL, "
        "node text NOT NULL, "
        "started_at timestamptz NOT NULL, "
        "finished_at timestamptz, "
        "runs bigint NOT NULL, "
        "CONSTRAINT pk_periodic_runs PRIMARY KEY (name))"
    )


def downgrade() -> None:
    op.execute("DROP TABLE periodic_runs")
