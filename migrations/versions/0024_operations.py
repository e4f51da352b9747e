"""Search analytics rows and retrieval evaluations (app/analytics, app/evaluations).

`search_queries`: one row per knowledge base searched, written after the response; the query
text is null when ARBOR_ANALYTICS_TEXT is off, and rows past the retention are pruned hourly.
`evaluations`: a judged query set, the search configurations to compare, and their results;
run as a job with the rights of the caller who posted it (`access`). Both belong to a project
(row-level security) and go with their knowledge base.

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-26
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
TENANT = "project_id = public.arbor_project_id()"


def _tenant(table: str) -> None:
    op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
    op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
    op.execute(
        f"CREATE POLICY arbor_tenant ON {table} TO {APP_ROLE} "
        f"USING ({TENANT}) WITH CHECK ({TENANT})"
    )
    op.execute(f"CREATE POLICY arbor_owner ON {table} TO CURRENT_USER USING (true)")


def upgrade() -> None:
    op.execute(
        "CREATE TABLE search_queries ("
        "id uuid NOT NULL, "
        "project_id uuid NOT NULL, "
        "knowledge_base_id uuid NOT NULL, "
        "created_at timestamptz NOT NULL DEFAULT now(), "
        "query varchar, "
        "mode varchar(8) NOT NULL, "
        "hits integer NOT NULL, "
        "top_score double precision, "
        "latency_ms double precision NOT NULL, "
        "CONSTRAINT pk_search_queries PRIMARY KEY (id), "
        "CONSTRAINT fk_search_queries_project_id_projects FOREIGN KEY (project_id) "
        "REFERENCES projects (id) ON DELETE CASCADE, "
        "CONSTRAINT fk_search_queries_knowledge_base_id_knowledge_bases "
        "FOREIGN KEY (knowledge_base_id) REFERENCES knowledge_bases (id) ON DELETE CASCADE)"
    )
    op.execute(
        "CREATE INDEX ix_search_queries_kb_time ON search_queries (knowledge_base_id, created_at)"
    )
    op.execute("CREATE INDEX ix_search_queries_created_at ON search_queries (created_at)")
    op.execute("CREATE INDEX ix_search_queries_project_id ON search_queries (project_id)")
    _tenant("search_queries")
    op.execute(
        "CREATE TABLE evaluations ("
        "id uuid NOT NULL, "
        "project_id uuid NOT NULL, "
        "knowledge_base_id uuid NOT NULL, "
        "job_id uuid, "
        "name varchar(200), "
        "status varchar(16) NOT NULL DEFAULT 'queued', "
        "access jsonb, "
        "request jsonb NOT NULL, "
        "results jsonb, "
        "error varchar, "
        "created_at timestamptz NOT NULL DEFAULT now(), "
        "updated_at timestamptz NOT NULL DEFAULT now(), "
        "finished_at timestamptz, "
        "CONSTRAINT pk_evaluations PRIMARY KEY (id), "
        "CONSTRAINT fk_evaluations_project_id_projects FOREIGN KEY (project_id) "
        "REFERENCES projects (id) ON DELETE CASCADE, "
        "CONSTRAINT fk_evaluations_knowledge_base_id_knowledge_bases "
        "FOREIGN KEY (knowledge_base_id) REFERENCES knowledge_bases (id) ON DELETE CASCADE)"
    )
    op.execute(
        "CREATE INDEX ix_evaluations_kb_time ON evaluations (knowledge_base_id, created_at, id)"
    )
    op.execute("CREATE INDEX ix_evaluations_project_id ON evaluations (project_id)")
    _tenant("evaluations")


def downgrade() -> None:
    op.execute("DROP TABLE evaluations")
    op.execute("DROP TABLE search_queries")
