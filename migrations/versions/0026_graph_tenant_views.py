"""Graph reads through tenant views, so the trigram indexes serve them.

Under row-level security Postgres evaluates a table's policy before any operator that is not
LEAKPROOF, so pg_trgm's `%`, `<%`, `ILIKE` never become index conditions on the graph tables:
every pattern and trigram step of graph search scanned the knowledge base's whole graph
(docs/graph.md, "Measured"). As `arbor_tenant.chunks` does for search (migration 0004), these
views carry the same project and knowledge-base condition as a plain WHERE clause; graph reads
put `arbor_tenant` first on their transaction's search_path (app/db/tenancy.py). Visibility by
provenance is unchanged: every read still joins readable mentions and documents.

The app role gets SELECT only: a write that resolved to a view would fail, not bypass the
policies' WITH CHECK. A migration that adds a column graph reads use must recreate its view.

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-26
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
TABLES = ("graph_entities", "graph_entity_mentions", "graph_relations", "graph_relation_mentions")


def upgrade() -> None:
    for table in TABLES:
        op.execute(
            f"CREATE VIEW arbor_tenant.{table} AS SELECT * FROM public.{table} "
            "WHERE project_id = public.arbor_project_id() "
            "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
        )
        op.execute(f"GRANT SELECT ON arbor_tenant.{table} TO {APP_ROLE}")


def downgrade() -> None:
    for table in reversed(TABLES):
        op.execute(f"DROP VIEW arbor_tenant.{table}")
