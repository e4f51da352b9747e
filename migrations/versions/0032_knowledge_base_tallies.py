"""Each knowledge base's document and chunk counts, kept by triggers instead of counted.

`GET /v1/knowledge-bases/{kb}` and the knowledge-base list answer with `document_count` and
`chunk_count`. Counting them was an index scan of every chunk and document on each read:
3.9 ms of Postgres time for SciFact's 9,900 chunks, growing with the knowledge base (a
million chunks is a scan of a million index entries per read). `knowledge_base_tallies` holds
the counts instead, kept by statement triggers on `documents` and `chunks` (inserts add,
deletes subtract, whoever writes: uploads, the store step, chunk writes, copies, cascades).

One row per knowledge base would make every writer of a knowledge base wait on that row until
its transaction commits. Each connection adds to its own slot instead (its backend's pid
modulo SLOTS), so two writers meet only when their slots collide, and a transaction holds one
slot per knowledge base, which keeps the lock order simple. A count is the sum of at most
SLOTS rows. Rows never change knowledge base in place (copies and transfers insert new rows
and delete the old), so updates need no trigger.

The triggers run as the owner (the counts derive from rows the caller was allowed to write;
the app role may only read them)
and join `knowledge_bases`, so a knowledge base being deleted, whose rows go by cascade, gets
no new tally row. Existing counts are taken after the triggers exist, in the same
transaction, whose locks hold off writers until it commits.

Revision ID: 0032
Revises: 0031
Create Date: 2026-11-28
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
TENANT = (
    "project_id = public.arbor_project_id() "
    "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
)
SLOTS = 32

TALLY = f"""
CREATE FUNCTION public.arbor_tally_rows() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    sign bigint := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
    INSERT INTO public.knowledge_base_tallies AS t
        (knowledge_base_id, slot, project_id, documents, chunks)
    SELECT kb.id, pg_backend_pid() % {SLOTS}, kb.project_id,
           sign * count(*) FILTER (WHERE TG_TABLE_NAME = 'documents'),
           sign * count(*) FILTER (WHERE TG_TABLE_NAME = 'chunks')
    FROM changed JOIN public.knowledge_bases kb ON kb.id = changed.knowledge_base_id
    GROUP BY kb.id, kb.project_id
    ORDER BY kb.id
    ON CONFLICT (knowledge_base_id, slot) DO UPDATE
        SET documents = t.documents + excluded.documents, chunks = t.chunks + excluded.chunks;
    RETURN NULL;
END
$$
"""

TRIGGERS = {
    "arbor_tally_insert": ("AFTER INSERT", "NEW"),
    "arbor_tally_delete": ("AFTER DELETE", "OLD"),
}


def upgrade() -> None:
    op.execute(
        "CREATE TABLE knowledge_base_tallies ("
        "knowledge_base_id uuid NOT NULL REFERENCES knowledge_bases (id) ON DELETE CASCADE, "
        "slot smallint NOT NULL, "
        "project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE, "
        "documents bigint NOT NULL DEFAULT 0, "
        "chunks bigint NOT NULL DEFAULT 0, "
        "CONSTRAINT pk_knowledge_base_tallies PRIMARY KEY (knowledge_base_id, slot))"
    )
    op.execute("ALTER TABLE knowledge_base_tallies ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE knowledge_base_tallies FORCE ROW LEVEL SECURITY")
    op.execute(
        f"CREATE POLICY arbor_tenant ON knowledge_base_tallies TO {APP_ROLE} USING ({TENANT})"
    )
    op.execute("CREATE POLICY arbor_owner ON knowledge_base_tallies TO CURRENT_USER USING (true)")
    # Only the triggers write counts: a key's own writes must not be able to set them.
    op.execute(f"REVOKE INSERT, UPDATE, DELETE ON knowledge_base_tallies FROM {APP_ROLE}")
    op.execute(TALLY)
    for table in ("documents", "chunks"):
        for name, (event, transition) in TRIGGERS.items():
            op.execute(
                f"CREATE TRIGGER {name} {event} ON {table} "
                f"REFERENCING {transition} TABLE AS changed "
                "FOR EACH STATEMENT EXECUTE FUNCTION public.arbor_tally_rows()"
            )
    op.execute(
        "INSERT INTO knowledge_base_tallies "
        "(knowledge_base_id, slot, project_id, documents, chunks) "
        "SELECT kb.id, 0, kb.project_id, "
        "(SELECT count(*) FROM documents d WHERE d.knowledge_base_id = kb.id), "
        "(SELECT count(*) FROM chunks c WHERE c.knowledge_base_id = kb.id) "
        "FROM knowledge_bases kb"
    )


def downgrade() -> None:
    for table in ("documents", "chunks"):
        for name in TRIGGERS:
            op.execute(f"DROP TRIGGER {name} ON {table}")
    op.execute("DROP FUNCTION public.arbor_tally_rows()")
    op.execute("DROP TABLE knowledge_base_tallies")
