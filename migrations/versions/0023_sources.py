"""Knowledge sources: the registry, each item's last synced version, sync runs; documents
remember the source and item that wrote them.

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-26
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
TENANT = "project_id = public.arbor_project_id()"
TABLES = ("sources", "source_items", "source_runs")


def upgrade() -> None:
    op.execute(
        "CREATE TABLE sources ("
        "id uuid NOT NULL, "
        "project_id uuid NOT NULL, "
        "knowledge_base_id uuid NOT NULL, "
        "name varchar(64) NOT NULL, "
        "kind varchar(16) NOT NULL, "
        "config jsonb NOT NULL DEFAULT '{}', "
        "access jsonb, "
        "metadata jsonb NOT NULL DEFAULT '{}', "
        "schedule_every_s integer, "
        "next_run_at timestamptz, "
        "created_at timestamptz NOT NULL DEFAULT now(), "
        "updated_at timestamptz NOT NULL DEFAULT now(), "
        "CONSTRAINT pk_sources PRIMARY KEY (id), "
        "CONSTRAINT uq_sources_knowledge_base_id_name UNIQUE (knowledge_base_id, name), "
        "CONSTRAINT fk_sources_project_id_projects FOREIGN KEY (project_id) "
        "REFERENCES projects (id) ON DELETE CASCADE, "
        "CONSTRAINT fk_sources_knowledge_base_id_knowledge_bases FOREIGN KEY (knowledge_base_id) "
        "REFERENCES knowledge_bases (id) ON DELETE CASCADE)"
    )
    op.execute("CREATE INDEX ix_sources_project_id ON sources (project_id)")
    op.execute("CREATE INDEX ix_sources_due ON sources (next_run_at) WHERE next_run_at IS NOT NULL")
    op.execute(
        "CREATE TABLE source_items ("
        "source_id uuid NOT NULL, "
        "item_key text NOT NULL, "
        "project_id uuid NOT NULL, "
        "version varchar, "
        "content_sha256 varchar(64), "
        "run_id uuid, "
        "updated_at timestamptz NOT NULL DEFAULT now(), "
        "CONSTRAINT pk_source_items PRIMARY KEY (source_id, item_key), "
        "CONSTRAINT fk_source_items_source_id_sources FOREIGN KEY (source_id) "
        "REFERENCES sources (id) ON DELETE CASCADE, "
        "CONSTRAINT fk_source_items_project_id_projects FOREIGN KEY (project_id) "
        "REFERENCES projects (id) ON DELETE CASCADE)"
    )
    op.execute(
        "CREATE TABLE source_runs ("
        "id uuid NOT NULL, "
        "project_id uuid NOT NULL, "
        "knowledge_base_id uuid NOT NULL, "
        "source_id uuid NOT NULL, "
        "status varchar(16) NOT NULL, "
        "trigger varchar(16) NOT NULL, "
        "dry_run boolean NOT NULL, "
        "counts jsonb NOT NULL DEFAULT '{}', "
        "errors jsonb NOT NULL DEFAULT '[]', "
        "error varchar, "
        "started_at timestamptz, "
        "finished_at timestamptz, "
        "created_at timestamptz NOT NULL DEFAULT now(), "
        "updated_at timestamptz NOT NULL DEFAULT now(), "
        "CONSTRAINT pk_source_runs PRIMARY KEY (id), "
        "CONSTRAINT fk_source_runs_project_id_projects FOREIGN KEY (project_id) "
        "REFERENCES projects (id) ON DELETE CASCADE, "
        "CONSTRAINT fk_source_runs_source_id_sources FOREIGN KEY (source_id) "
        "REFERENCES sources (id) ON DELETE CASCADE)"
    )
    op.execute("CREATE INDEX ix_source_runs_source_created ON source_runs (source_id, created_at)")
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY arbor_tenant ON {table} TO {APP_ROLE} "
            f"USING ({TENANT}) WITH CHECK ({TENANT})"
        )
        op.execute(f"CREATE POLICY arbor_owner ON {table} TO CURRENT_USER USING (true)")
    op.execute("ALTER TABLE documents ADD COLUMN source_id uuid")
    op.execute("ALTER TABLE documents ADD COLUMN source_record_id varchar")
    op.execute(
        "ALTER TABLE documents ADD CONSTRAINT fk_documents_source_id_sources "
        "FOREIGN KEY (source_id) REFERENCES sources (id) ON DELETE SET NULL"
    )
    op.execute(
        "CREATE INDEX ix_documents_source ON documents (source_id, source_record_id) "
        "WHERE source_id IS NOT NULL"
    )


def downgrade() -> None:
    op.execute("DROP INDEX ix_documents_source")
    op.execute("ALTER TABLE documents DROP COLUMN source_record_id")
    op.execute("ALTER TABLE documents DROP COLUMN source_id")
    for table in reversed(TABLES):
        op.execute(f"DROP TABLE {table}")
