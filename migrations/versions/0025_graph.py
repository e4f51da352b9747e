"""Knowledge graph and enrichment: per-knowledge-base settings, entities, relations, provenance.

Entities and relations are shared by the documents of a knowledge base (merged by normalised
name); what each chunk contributed is a mention row, tied to its document by a foreign key, so
deleting a document removes exactly its mentions. A statement trigger then deletes the entities
and relations no mention holds any more; readers never depend on it (they join through readable
mentions), it only keeps the tables from growing. Reads go through mentions because visibility
follows provenance: a caller sees an entity or a fact only through a document it may read.

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-26
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
TENANT = (
    "project_id = public.arbor_project_id() "
    "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
)
PRUNED = {"entity": "graph_entities", "relation": "graph_relations"}
TABLES = ("graph_entities", "graph_entity_mentions", "graph_relations", "graph_relation_mentions")
OWNED = (
    "project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE, "
    "knowledge_base_id uuid NOT NULL REFERENCES knowledge_bases (id) ON DELETE CASCADE, "
)

# Runs as the owner: the rows it deletes are the caller's project's anyway, and row-level
# security must not hide a mention that still holds an entity.
PRUNE_FUNCTION = """
CREATE FUNCTION public.arbor_graph_prune_{what}() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    DELETE FROM public.{table} t
    WHERE t.id IN (SELECT DISTINCT g.{what}_id FROM gone g)
      AND NOT EXISTS (SELECT 1 FROM public.graph_{what}_mentions m WHERE m.{what}_id = t.id);
    RETURN NULL;
END
$$
"""


def upgrade() -> None:
    op.execute(
        "ALTER TABLE knowledge_bases "
        "ADD COLUMN enrichment jsonb NOT NULL DEFAULT '{}', "
        "ADD COLUMN graph jsonb NOT NULL DEFAULT '{}'"
    )
    op.execute(
        "CREATE TABLE graph_entities ("
        "id uuid PRIMARY KEY, " + OWNED + "key text NOT NULL, "
        "name text NOT NULL, "
        "type varchar(40) NOT NULL, "
        "name_embedding vector, "
        "created_at timestamptz NOT NULL DEFAULT now(), "
        "updated_at timestamptz NOT NULL DEFAULT now(), "
        "CONSTRAINT uq_graph_entities_kb_key UNIQUE (knowledge_base_id, key))"
    )
    op.execute(
        "CREATE INDEX ix_graph_entities_name_trgm ON graph_entities USING gin (name gin_trgm_ops)"
    )
    op.execute(
        "CREATE TABLE graph_entity_mentions ("
        "entity_id uuid NOT NULL REFERENCES graph_entities (id) ON DELETE CASCADE, "
        "chunk_id uuid NOT NULL, "
        "document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE, " + OWNED + ""
        "surface text NOT NULL, "
        "description text NOT NULL, "
        "extraction uuid NOT NULL, "
        "CONSTRAINT pk_graph_entity_mentions PRIMARY KEY (entity_id, chunk_id))"
    )
    op.execute(
        "CREATE INDEX ix_graph_entity_mentions_document ON graph_entity_mentions (document_id)"
    )
    op.execute(
        "CREATE INDEX ix_graph_entity_mentions_description_trgm ON graph_entity_mentions "
        "USING gin (description gin_trgm_ops)"
    )
    op.execute(
        "CREATE TABLE graph_relations ("
        "id uuid PRIMARY KEY, " + OWNED + ""
        "source_id uuid NOT NULL REFERENCES graph_entities (id) ON DELETE CASCADE, "
        "target_id uuid NOT NULL REFERENCES graph_entities (id) ON DELETE CASCADE, "
        "type varchar(64) NOT NULL, "
        "fact text NOT NULL, "
        "fact_embedding vector, "
        "created_at timestamptz NOT NULL DEFAULT now(), "
        "updated_at timestamptz NOT NULL DEFAULT now())"
    )
    op.execute(
        "CREATE UNIQUE INDEX uq_graph_relations_key ON graph_relations "
        "(knowledge_base_id, source_id, target_id, type, md5(fact))"
    )
    op.execute("CREATE INDEX ix_graph_relations_source ON graph_relations (source_id)")
    op.execute("CREATE INDEX ix_graph_relations_target ON graph_relations (target_id)")
    op.execute(
        "CREATE INDEX ix_graph_relations_fact_trgm ON graph_relations USING gin (fact gin_trgm_ops)"
    )
    op.execute(
        "CREATE TABLE graph_relation_mentions ("
        "relation_id uuid NOT NULL REFERENCES graph_relations (id) ON DELETE CASCADE, "
        "chunk_id uuid NOT NULL, "
        "document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE, " + OWNED + ""
        "extraction uuid NOT NULL, "
        "CONSTRAINT pk_graph_relation_mentions PRIMARY KEY (relation_id, chunk_id))"
    )
    op.execute(
        "CREATE INDEX ix_graph_relation_mentions_document ON graph_relation_mentions (document_id)"
    )
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY arbor_tenant ON {table} TO {APP_ROLE} "
            f"USING ({TENANT}) WITH CHECK ({TENANT})"
        )
        op.execute(f"CREATE POLICY arbor_owner ON {table} TO CURRENT_USER USING (true)")
    # The job claim takes graph jobs only when nothing else is runnable (app/jobs/repository.py):
    # one partial index per side keeps both claims index scans behind any queue of the other.
    op.execute("DROP INDEX ix_jobs_claim")
    op.execute(
        "CREATE INDEX ix_jobs_claim ON jobs (run_after) "
        "WHERE status IN ('queued', 'running') AND kind <> 'graph'"
    )
    op.execute(
        "CREATE INDEX ix_jobs_claim_graph ON jobs (run_after) "
        "WHERE status IN ('queued', 'running') AND kind = 'graph'"
    )
    for what in ("entity", "relation"):
        op.execute(PRUNE_FUNCTION.format(what=what, table=PRUNED[what]))
        op.execute(
            f"CREATE TRIGGER arbor_graph_prune_{what} AFTER DELETE ON graph_{what}_mentions "
            "REFERENCING OLD TABLE AS gone FOR EACH STATEMENT "
            f"EXECUTE FUNCTION public.arbor_graph_prune_{what}()"
        )


def downgrade() -> None:
    op.execute("DROP INDEX ix_jobs_claim_graph")
    op.execute("DROP INDEX ix_jobs_claim")
    op.execute(
        "CREATE INDEX ix_jobs_claim ON jobs (run_after) WHERE status IN ('queued', 'running')"
    )
    for table in reversed(TABLES):
        op.execute(f"DROP TABLE {table}")
    for what in ("entity", "relation"):
        op.execute(f"DROP FUNCTION public.arbor_graph_prune_{what}()")
    op.execute("ALTER TABLE knowledge_bases DROP COLUMN enrichment, DROP COLUMN graph")
