"""Tenancy: API keys, audit events, and row-level security for every project-scoped table.

The service connects as the owner of the schema (it runs these migrations) and switches each
request's transaction to the role `arbor_app` with `arbor.project_id` set (app/db/tenancy.py).
`arbor_app` cannot bypass row-level security; its policies only show rows of that project, and
of the key's knowledge bases when `arbor.knowledge_bases` lists some.

Search reads chunks through the view `arbor_tenant.chunks`: RLS keeps a table's non-leakproof
operators (`@@`, pg_trgm's `<%`) from being used as index conditions, so the GIN indexes would
go unused; the view carries the same project condition as a plain WHERE clause. A migration
that adds a column to `chunks` that search reads must recreate the view.

The role is cluster-wide and shared by every Arbor database on the server, so the downgrade
leaves it in place.

Revision ID: 0004
Revises: 0002
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql as pg

revision: str = "0004"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
PROJECT = "project_id = public.arbor_project_id()"
# Table -> the row's visibility condition for arbor_app.
POLICIES = {
    "knowledge_bases": f"{PROJECT} AND public.arbor_knowledge_base_visible(id)",
    "documents": f"{PROJECT} AND public.arbor_knowledge_base_visible(knowledge_base_id)",
    "chunks": f"{PROJECT} AND public.arbor_knowledge_base_visible(knowledge_base_id)",
    "jobs": f"{PROJECT} AND public.arbor_knowledge_base_visible(knowledge_base_id)",
    "document_sources": PROJECT,
    "api_keys": PROJECT,
    "audit_events": PROJECT,
}
READ_WRITE = ("knowledge_bases", "documents", "chunks", "jobs", "document_sources", "api_keys")


def _create_tables() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("project_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("key_sha256", sa.String(64), nullable=False),
        sa.Column("scopes", pg.ARRAY(sa.String(16)), nullable=False),
        sa.Column("knowledge_base_ids", pg.ARRAY(sa.Uuid()), nullable=True),
        sa.Column("principals", pg.ARRAY(sa.String(256)), nullable=False, server_default="{}"),
        sa.Column("delegate", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_by", sa.String(100), nullable=False, server_default=""),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column(
            "updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.PrimaryKeyConstraint("id", name="pk_api_keys"),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            ondelete="CASCADE",
            name="fk_api_keys_project_id_projects",
        ),
        sa.UniqueConstraint("prefix", name="uq_api_keys_prefix"),
        sa.CheckConstraint(
            "scopes <@ ARRAY['read', 'write', 'admin']::varchar[] AND cardinality(scopes) > 0",
            name="ck_api_keys_known_scopes",
        ),
    )
    op.create_index("ix_api_keys_project_id", "api_keys", ["project_id"])

    op.create_table(
        "audit_events",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("project_id", sa.Uuid(), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column("api_key_id", sa.Uuid(), nullable=True),
        sa.Column("actor", sa.String(100), nullable=False),
        sa.Column("operation", sa.String(100), nullable=False),
        sa.Column("method", sa.String(10), nullable=False),
        sa.Column("path", sa.String(2000), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("target", pg.JSONB(), nullable=False, server_default="{}"),
        sa.Column("hits", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_audit_events"),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            ondelete="CASCADE",
            name="fk_audit_events_project_id_projects",
        ),
    )
    op.create_index(
        "ix_audit_events_project_time", "audit_events", ["project_id", "created_at", "id"]
    )
    op.create_index("ix_audit_events_created_at", "audit_events", ["created_at"])


def _create_role() -> None:
    # SET ROLE needs membership (and, from Postgres 16, the SET option); superusers have both.
    op.execute(
        f"""
        DO $$
        BEGIN
            IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = '{APP_ROLE}') THEN
                CREATE ROLE {APP_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
            END IF;
            IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
                IF current_setting('server_version_num')::int >= 160000 THEN
                    EXECUTE format('GRANT {APP_ROLE} TO %I WITH SET TRUE', current_user);
                ELSE
                    EXECUTE format('GRANT {APP_ROLE} TO %I', current_user);
                END IF;
            END IF;
        END
        $$
        """
    )


def _create_functions() -> None:
    # Plain SQL functions, inlined by the planner: the project condition stays an index
    # condition. An unset or reset setting is '' (NULL), which matches no row.
    op.execute(
        """
        CREATE FUNCTION public.arbor_project_id() RETURNS uuid
        LANGUAGE sql STABLE PARALLEL SAFE
        AS $$ SELECT NULLIF(pg_catalog.current_setting('arbor.project_id', true), '')::uuid $$
        """
    )
    op.execute(
        """
        CREATE FUNCTION public.arbor_knowledge_base_visible(knowledge_base_id uuid)
        RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE
        AS $$
            SELECT NULLIF(pg_catalog.current_setting('arbor.knowledge_bases', true), '') IS NULL
                OR knowledge_base_id = ANY (pg_catalog.string_to_array(
                    pg_catalog.current_setting('arbor.knowledge_bases', true), ',')::uuid[])
        $$
        """
    )


def _grant() -> None:
    op.execute(f"GRANT USAGE ON SCHEMA public TO {APP_ROLE}")
    op.execute(f"GRANT SELECT ON projects TO {APP_ROLE}")
    op.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {', '.join(READ_WRITE)} TO {APP_ROLE}")
    op.execute(f"GRANT SELECT, INSERT ON audit_events TO {APP_ROLE}")
    # Tables of later migrations are usable by the app role too; tests/auth check that every
    # table with a project_id has row-level security.
    op.execute(
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public "
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {APP_ROLE}"
    )
    op.execute(
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO {APP_ROLE}"
    )


def _enable_row_security() -> None:
    for table, condition in POLICIES.items():
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY arbor_tenant ON {table} TO {APP_ROLE} "
            f"USING ({condition}) WITH CHECK ({condition})"
        )
        # The owner (migrations, the job queue, key lookup) sees every row, by an explicit
        # policy rather than the implicit owner exemption that FORCE turns off.
        op.execute(f"CREATE POLICY arbor_owner ON {table} TO CURRENT_USER USING (true)")
    op.execute("ALTER TABLE projects ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE projects FORCE ROW LEVEL SECURITY")
    op.execute(
        f"CREATE POLICY arbor_tenant ON projects FOR SELECT TO {APP_ROLE} "
        "USING (id = public.arbor_project_id())"
    )
    op.execute("CREATE POLICY arbor_owner ON projects TO CURRENT_USER USING (true)")


def _create_search_view() -> None:
    op.execute("CREATE SCHEMA arbor_tenant")
    op.execute(
        "CREATE VIEW arbor_tenant.chunks AS SELECT * FROM public.chunks "
        "WHERE project_id = public.arbor_project_id() "
        "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
    )
    op.execute(f"GRANT USAGE ON SCHEMA arbor_tenant TO {APP_ROLE}")
    op.execute(f"GRANT SELECT ON arbor_tenant.chunks TO {APP_ROLE}")


def upgrade() -> None:
    _create_tables()
    _create_role()
    _create_functions()
    _grant()
    _enable_row_security()
    _create_search_view()


def downgrade() -> None:
    op.execute("DROP SCHEMA arbor_tenant CASCADE")
    for table in (*POLICIES, "projects"):
        if table in ("api_keys", "audit_events"):
            continue
        op.execute(f"DROP POLICY arbor_tenant ON {table}")
        op.execute(f"DROP POLICY arbor_owner ON {table}")
        op.execute(f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
    op.execute(
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public "
        f"REVOKE SELECT, INSERT, UPDATE, DELETE ON TABLES FROM {APP_ROLE}"
    )
    op.execute(
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public "
        f"REVOKE USAGE, SELECT ON SEQUENCES FROM {APP_ROLE}"
    )
    op.drop_table("audit_events")
    op.drop_table("api_keys")
    op.execute(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {APP_ROLE}")
    op.execute(f"REVOKE USAGE ON SCHEMA public FROM {APP_ROLE}")
    op.execute("DROP FUNCTION public.arbor_knowledge_base_visible(uuid)")
    op.execute("DROP FUNCTION public.arbor_project_id()")
