"""Every key of a tenant's table carries its project: primary keys, unique keys, foreign keys.

Citus distributes a table by one column (here `project_id`, docs/scaling.md) and requires
every primary key and unique constraint of a distributed table to include it, and a foreign
key between two distributed tables to include it on both sides. The keys were on `id` (or
another column) alone. Each now ends with `project_id`:

- primary keys `(id)` become `(id, project_id)`, and the same for the composite ones
  (`chunks` `(id, knowledge_base_id, project_id)`). Ids lead, so a lookup by id alone (the
  service's own work, which has no project in scope) still reads the key's index;
- unique keys within a knowledge base or source get `project_id` after their columns;
- foreign keys between tenant tables become `(x_id, project_id) -> (id, project_id)`. This
  also makes the database refuse a row whose project differs from its parent's (a document
  in another project's knowledge base), which row-level security alone did not.

A knowledge base belongs to exactly one project, so no key allows more than it did. `jobs`
stays keyed by `id` (the queue is claimed across tenants, "What is not distribution-ready"),
but its foreign keys to knowledge bases and documents carry the project like the others.
Rows that lose their source keep their project: that foreign key sets only `source_id` to
null (Postgres 15's column list). The tally trigger's upsert names the new key.

A foreign key whose columns include the project gives Postgres's check a second way in: an
index on `project_id` alone matches `project_id = $2` as well as the key matches the id, and
while a table has no statistics (a fresh database, a first bulk load) the planner costs them
the same and may pick it for the check it keeps per connection (migration 0008 met this on
`documents`). A chunk insert would then read every document of the project per chunk, and a
document delete every chunk of the project. The indexes on `project_id` alone of the tables on
either side of such a key (`documents`, `chunks`, `jobs`, `knowledge_bases`, `sources`,
`search_queries`, `evaluations`) are dropped: no statement reads them by project alone
without a knowledge base (whose indexes serve it; `(project_id, name)` serves the knowledge
bases of a project), and the one that would, the cascade of a project's deletion, which the
API does not offer, scans once per project.

Every key of the tables listed is rebuilt and every foreign key checked again, under locks
that hold writers off until the migration commits: 1.1 s for 100,000 documents and a million
chunks on the 2-core development machine (`scripts/bench_migration_keys.py`, docs/benchmarks.md),
growing with the rows.

Revision ID: 0034
Revises: 0033
Create Date: 2026-12-07
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0034"
down_revision: str | None = "0033"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# table -> (constraint, columns before `project_id`)
PRIMARY_KEYS = {
    "knowledge_bases": ("pk_knowledge_bases", "id"),
    "documents": ("pk_documents", "id"),
    "document_sources": ("pk_document_sources", "document_id"),
    "document_nodes": ("pk_document_nodes", "document_id, node_id"),
    "chunks": ("pk_chunks", "id, knowledge_base_id"),
    "text_statistics": ("pk_text_statistics", "knowledge_base_id"),
    "knowledge_base_tallies": ("pk_knowledge_base_tallies", "knowledge_base_id, slot"),
    "events": ("pk_events", "id"),
    "webhooks": ("pk_webhooks", "id"),
    "audit_events": ("pk_audit_events", "id"),
    "search_queries": ("pk_search_queries", "id"),
    "evaluations": ("pk_evaluations", "id"),
    "sources": ("pk_sources", "id"),
    "source_items": ("pk_source_items", "source_id, item_key"),
    "source_runs": ("pk_source_runs", "id"),
    "graph_entities": ("graph_entities_pkey", "id"),
    "graph_relations": ("graph_relations_pkey", "id"),
    "graph_entity_mentions": ("pk_graph_entity_mentions", "entity_id, chunk_id"),
    "graph_relation_mentions": ("pk_graph_relation_mentions", "relation_id, chunk_id"),
}

# table -> (constraint, columns before `project_id`)
UNIQUE_CONSTRAINTS = {
    "sources": ("uq_sources_knowledge_base_id_name", "knowledge_base_id, name"),
    "graph_entities": ("uq_graph_entities_kb_key", "knowledge_base_id, key"),
}

# index -> (table, keys before `project_id`, predicate)
UNIQUE_INDEXES = {
    "uq_documents_kb_external_id": (
        "documents",
        "knowledge_base_id, external_id",
        "WHERE external_id IS NOT NULL",
    ),
    "uq_graph_relations_key": (
        "graph_relations",
        "knowledge_base_id, source_id, target_id, type, md5(fact)",
        "",
    ),
}

# (table, constraint, column, referenced table, on delete)
FOREIGN_KEYS = [
    ("documents", "fk_documents_knowledge_base_id_knowledge_bases", "knowledge_base_id",
     "knowledge_bases", "CASCADE"),
    ("documents", "fk_documents_source_id_sources", "source_id", "sources", "SET NULL"),
    ("jobs", "fk_jobs_knowledge_base_id_knowledge_bases", "knowledge_base_id",
     "knowledge_bases", "CASCADE"),
    ("jobs", "fk_jobs_document_id_documents", "document_id", "documents", "CASCADE"),
    ("document_sources", "fk_document_sources_document_id_documents", "document_id",
     "documents", "CASCADE"),
    ("document_nodes", "document_nodes_document_id_fkey", "document_id", "documents",
     "CASCADE"),
    ("document_nodes", "document_nodes_knowledge_base_id_fkey", "knowledge_base_id",
     "knowledge_bases", "CASCADE"),
    ("chunks", "fk_chunks_document_id", "document_id", "documents", "CASCADE"),
    ("text_statistics", "fk_text_statistics_knowledge_base_id_knowledge_bases",
     "knowledge_base_id", "knowledge_bases", "CASCADE"),
    ("knowledge_base_tallies", "knowledge_base_tallies_knowledge_base_id_fkey",
     "knowledge_base_id", "knowledge_bases", "CASCADE"),
    ("sources", "fk_sources_knowledge_base_id_knowledge_bases", "knowledge_base_id",
     "knowledge_bases", "CASCADE"),
    ("source_items", "fk_source_items_source_id_sources", "source_id", "sources", "CASCADE"),
    ("source_runs", "fk_source_runs_source_id_sources", "source_id", "sources", "CASCADE"),
    ("search_queries", "fk_search_queries_knowledge_base_id_knowledge_bases",
     "knowledge_base_id", "knowledge_bases", "CASCADE"),
    ("evaluations", "fk_evaluations_knowledge_base_id_knowledge_bases", "knowledge_base_id",
     "knowledge_bases", "CASCADE"),
    ("graph_entities", "graph_entities_knowledge_base_id_fkey", "knowledge_base_id",
     "knowledge_bases", "CASCADE"),
    ("graph_relations", "graph_relations_knowledge_base_id_fkey", "knowledge_base_id",
     "knowledge_bases", "CASCADE"),
    ("graph_relations", "graph_relations_source_id_fkey", "source_id", "graph_entities",
     "CASCADE"),
    ("graph_relations", "graph_relations_target_id_fkey", "target_id", "graph_entities",
     "CASCADE"),
    ("graph_entity_mentions", "graph_entity_mentions_entity_id_fkey", "entity_id",
     "graph_entities", "CASCADE"),
    ("graph_entity_mentions", "graph_entity_mentions_document_id_fkey", "document_id",
     "documents", "CASCADE"),
    ("graph_entity_mentions", "graph_entity_mentions_knowledge_base_id_fkey",
     "knowledge_base_id", "knowledge_bases", "CASCADE"),
    ("graph_relation_mentions", "graph_relation_mentions_relation_id_fkey", "relation_id",
     "graph_relations", "CASCADE"),
    ("graph_relation_mentions", "graph_relation_mentions_document_id_fkey", "document_id",
     "documents", "CASCADE"),
    ("graph_relation_mentions", "graph_relation_mentions_knowledge_base_id_fkey",
     "knowledge_base_id", "knowledge_bases", "CASCADE"),
]  # fmt: skip

# Indexes on `project_id` alone, which a foreign-key check could take for the key's own.
PROJECT_INDEXES = {
    "ix_documents_project_id": "documents",
    "ix_chunks_project_id": "chunks",
    "ix_jobs_project_id": "jobs",
    "ix_knowledge_bases_project_id": "knowledge_bases",
    "ix_sources_project_id": "sources",
    "ix_search_queries_project_id": "search_queries",
    "ix_evaluations_project_id": "evaluations",
}

SLOTS = 32


def tally_function(conflict_target: str) -> str:
    """Migration 0032's trigger function, its upsert aimed at `conflict_target`."""
    return f"""
CREATE OR REPLACE FUNCTION public.arbor_tally_rows() RETURNS trigger
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
    ON CONFLICT ({conflict_target}) DO UPDATE
        SET documents = t.documents + excluded.documents, chunks = t.chunks + excluded.chunks;
    RETURN NULL;
END
$$
"""


def _rekey(with_project: bool) -> None:
    suffix = ", project_id" if with_project else ""
    for table, name, _column, _parent, _on_delete in FOREIGN_KEYS:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
    for table, (name, columns) in PRIMARY_KEYS.items():
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
        op.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} PRIMARY KEY ({columns}{suffix})")
    for table, (name, columns) in UNIQUE_CONSTRAINTS.items():
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
        op.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} UNIQUE ({columns}{suffix})")
    for name, (table, keys, predicate) in UNIQUE_INDEXES.items():
        op.execute(f"DROP INDEX {name}")
        op.execute(f"CREATE UNIQUE INDEX {name} ON {table} ({keys}{suffix}) {predicate}")
    for table, name, column, parent, on_delete in FOREIGN_KEYS:
        action = on_delete
        if with_project and on_delete == "SET NULL":
            action = f"SET NULL ({column})"  # the row keeps its project
        op.execute(
            f"ALTER TABLE {table} ADD CONSTRAINT {name} FOREIGN KEY ({column}{suffix}) "
            f"REFERENCES {parent} (id{suffix}) ON DELETE {action}"
        )
    op.execute(tally_function("knowledge_base_id, slot" + suffix))


def upgrade() -> None:
    for name in PROJECT_INDEXES:
        op.execute(f"DROP INDEX {name}")
    _rekey(with_project=True)


def downgrade() -> None:
    _rekey(with_project=False)
    for name, table in PROJECT_INDEXES.items():
        op.execute(f"CREATE INDEX {name} ON {table} (project_id)")
