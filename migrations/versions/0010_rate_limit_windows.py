"""Rate-limit counts in Postgres, shared by every process of the service.

The limiter counted in each process's memory, so with `ARBOR_HTTP_WORKERS` (or several
replicas on one database) a key got N times its limit. One row per key and minute now holds the
count; requests of all processes update it atomically (app/auth/ratelimit.py). UNLOGGED: no
WAL per request, and a crash resetting the counts costs nothing but a minute's budget.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "CREATE UNLOGGED TABLE rate_limit_windows ("
        "key text NOT NULL, "
        "minute bigint NOT NULL, "
        "count integer NOT NULL, "
        "CONSTRAINT pk_rate_limit_windows PRIMARY KEY (key, minute))"
    )


def downgrade() -> None:
    op.execute("DROP TABLE rate_limit_windows")
