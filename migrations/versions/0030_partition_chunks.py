"""Chunks partitioned by hash of their knowledge base: 16 partitions.

Measured (docs/benchmarks.md, "Partitioning chunks by knowledge base" and "Search and the
number of knowledge bases"): every knowledge base has its own partial HNSW index, and the
planner reads every index of a table it plans, so a search slowed down with the number of
knowledge bases in the database (Postgres CPU per hybrid search 29 ms with one, 163 ms with
2,000). A partition holds a sixteenth of them; a statement that names its knowledge base is
planned on that partition alone. Full-text search within a knowledge base is 1.2 to 3.5 times
faster (a partition's GIN index holds fewer other knowledge bases' matches), and the VACUUM
after a rewrite visits only one partition's HNSW indexes.

What it changes: the primary key is (id, knowledge_base_id), so a chunk id is unique within its
knowledge base, not across all of them (Postgres cannot enforce a key without the partition
column, nor can Citus: the same layout distributes there). Each knowledge base's HNSW index is
built on its partition (app/chunks/partitions.py); the start-up sweep
(app/chunks/index_upkeep.py) builds them again after this migration, CONCURRENTLY, and until it
has, that knowledge base's vector search is exact (the same results, slower).

The rows are copied in one statement; a large table needs a maintenance window for it.

Revision ID: 0030
Revises: 0029
Create Date: 2026-11-27
"""

from collections.abc import Sequence

from alembic import op
from sqlalchemy import text

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
PARTITIONS = 16
OLD = "chunks_unpartitioned"
TENANT = (
    "project_id = public.arbor_project_id() "
    "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
)
INDEXES = {
    "ix_chunks_document": "(document_id, chunk_index)",
    "ix_chunks_knowledge_base_id": "(knowledge_base_id)",
    "ix_chunks_own_metadata": "(knowledge_base_id) WHERE own_metadata",
    "ix_chunks_project_id": "(project_id)",
    "ix_chunks_text_sha256": "(text_sha256) WHERE embedding IS NOT NULL",
    "ix_chunks_tsv": "USING gin (tsv)",
}
TRIGGERS = {
    "arbor_chunks_match_documents_insert": "AFTER INSERT",
    "arbor_chunks_match_documents_update": "AFTER UPDATE",
}


def partition_name(remainder: int) -> str:
    return f"chunks_p{remainder:02d}"


def _set_aside_old_table() -> None:
    """Rename the table and free every name the new one takes; the view goes with it, and the
    knowledge bases' HNSW indexes with the table at the end (`_finish`)."""
    op.execute("DROP VIEW arbor_tenant.chunks")
    op.execute(f"ALTER TABLE chunks RENAME TO {OLD}")
    op.execute(f"ALTER TABLE {OLD} RENAME CONSTRAINT pk_chunks TO pk_{OLD}")
    op.execute(f"ALTER TABLE {OLD} DROP CONSTRAINT fk_chunks_document_id")
    for name in INDEXES:
        op.execute(f"DROP INDEX {name}")
    for name in TRIGGERS:
        op.execute(f"DROP TRIGGER {name} ON {OLD}")


def _columns(table: str) -> str:
    """The table's stored columns (not the generated tsvector), in order."""
    names = op.get_bind().scalars(
        text(
            "SELECT attname FROM pg_attribute WHERE attrelid = CAST(:t AS regclass) "
            "AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum"
        ),
        {"t": f"public.{table}"},
    )
    return ", ".join(f'"{name}"' for name in names)


def _finish(*, partitioned: bool) -> None:
    """Indexes, keys, triggers, row security, grants and the search view of the new `chunks`,
    after the rows are in (building an index once is cheaper than keeping it up per row)."""
    for name, definition in INDEXES.items():
        op.execute(f"CREATE INDEX {name} ON chunks {definition}")
    op.execute(
        "ALTER TABLE chunks ADD CONSTRAINT fk_chunks_document_id "
        "FOREIGN KEY (document_id) REFERENCES documents (id) ON DELETE CASCADE"
    )
    for name, event in TRIGGERS.items():
        op.execute(
            f"CREATE TRIGGER {name} {event} ON chunks REFERENCING NEW TABLE AS written "
            "FOR EACH STATEMENT EXECUTE FUNCTION public.arbor_chunks_match_documents()"
        )
    tables = ["chunks"] + ([partition_name(r) for r in range(PARTITIONS)] if partitioned else [])
    for table in tables:
        # Partitions too: a query through the parent uses the parent's policies, one naming a
        # partition its own, so neither shows another project's rows.
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY arbor_tenant ON {table} TO {APP_ROLE} "
            f"USING ({TENANT}) WITH CHECK ({TENANT})"
        )
        op.execute(f"CREATE POLICY arbor_owner ON {table} TO CURRENT_USER USING (true)")
        if table != "chunks":
            op.execute(f"REVOKE ALL ON {table} FROM {APP_ROLE}")
    op.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON chunks TO {APP_ROLE}")
    op.execute(f"DROP TABLE {OLD}")
    # The view of migration 0004 (why search reads through it: docs/tenancy.md).
    op.execute(
        "CREATE VIEW arbor_tenant.chunks AS SELECT * FROM public.chunks "
        "WHERE project_id = public.arbor_project_id() "
        "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
    )
    op.execute(f"GRANT SELECT ON arbor_tenant.chunks TO {APP_ROLE}")


def upgrade() -> None:
    _set_aside_old_table()
    op.execute(
        f"CREATE TABLE chunks (LIKE {OLD} INCLUDING DEFAULTS INCLUDING GENERATED "
        "INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY HASH (knowledge_base_id)"
    )
    op.execute("ALTER TABLE chunks ADD CONSTRAINT pk_chunks PRIMARY KEY (id, knowledge_base_id)")
    for remainder in range(PARTITIONS):
        # Rows up to 8,160 bytes stay inline (migration 0011); a partitioned table has no
        # storage of its own, so each partition carries the setting.
        op.execute(
            f"CREATE TABLE {partition_name(remainder)} PARTITION OF chunks "
            f"FOR VALUES WITH (MODULUS {PARTITIONS}, REMAINDER {remainder}) "
            "WITH (toast_tuple_target = 8160)"
        )
    columns = _columns(OLD)
    op.execute(f"INSERT INTO chunks ({columns}) SELECT {columns} FROM {OLD}")
    _finish(partitioned=True)
    # The partitions' statistics now, not at autovacuum's leisure: without them the planner
    # guessed the text side's matches, and full-text searches took twice the CPU until then.
    op.execute("ANALYZE chunks")


def downgrade() -> None:
    # Back to one table keyed by id alone: two knowledge bases holding the same chunk id
    # cannot both stay, so the downgrade fails on the key rather than drop one.
    _set_aside_old_table()
    op.execute(
        f"CREATE TABLE chunks (LIKE {OLD} INCLUDING DEFAULTS INCLUDING GENERATED "
        "INCLUDING STORAGE INCLUDING COMPRESSION) WITH (toast_tuple_target = 8160)"
    )
    op.execute("ALTER TABLE chunks ADD CONSTRAINT pk_chunks PRIMARY KEY (id)")
    columns = _columns(OLD)
    op.execute(f"INSERT INTO chunks ({columns}) SELECT {columns} FROM {OLD}")
    _finish(partitioned=False)
    op.execute("ANALYZE chunks")
