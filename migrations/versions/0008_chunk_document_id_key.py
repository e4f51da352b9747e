"""Chunks reference their document by id alone; a statement trigger checks its knowledge base.

The composite key of 0006 (document id, knowledge base, project) made Postgres's foreign-key
check look a document up by all three columns. That check is a plan cached per connection, made
the first time the connection inserts a chunk; while `documents` has no statistics yet (a
fresh database, a first bulk load: autovacuum analyses it only later), three indexes cost the
same for it, and the planner can pick `ix_documents_kb_sha` or `ix_documents_knowledge_base_id`
on `knowledge_base_id = $2` alone. The connection then reads every document of the knowledge
base for every chunk it inserts, until an ANALYZE: measured on 5,000-chunk bulk requests, every
other request (one pooled connection) took 0.6, 0.9, 1.3, 1.9, 2.4 s, 104 million index tuples
read for 60,000 chunks. Looked up by id, the check can only use the primary key.

A chunk still cannot name another knowledge base's or project's document (rows written as the
owner bypass row-level security, see docs/tenancy.md): an AFTER statement trigger compares the
written rows with their documents, once per statement, through the transition table. It runs
as the owner (SECURITY DEFINER), so row-level security cannot hide the document it compares.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHECK_FUNCTION = """
CREATE FUNCTION public.arbor_chunks_match_documents() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM written w JOIN public.documents d ON d.id = w.document_id
        WHERE d.knowledge_base_id <> w.knowledge_base_id OR d.project_id <> w.project_id
    ) THEN
        RAISE EXCEPTION 'a chunk names a document of another knowledge base or project'
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END
$$
"""
TRIGGERS = {
    "arbor_chunks_match_documents_insert": "AFTER INSERT",
    "arbor_chunks_match_documents_update": "AFTER UPDATE",
}


def upgrade() -> None:
    # NOT VALID, then VALIDATE: existing rows are checked without blocking writes meanwhile.
    op.execute(
        "ALTER TABLE chunks ADD CONSTRAINT fk_chunks_document_id "
        "FOREIGN KEY (document_id) REFERENCES documents (id) ON DELETE CASCADE NOT VALID"
    )
    op.execute("ALTER TABLE chunks VALIDATE CONSTRAINT fk_chunks_document_id")
    op.drop_constraint("fk_chunks_document", "chunks", type_="foreignkey")
    op.drop_constraint("uq_documents_id_knowledge_base_project", "documents", type_="unique")
    op.execute(CHECK_FUNCTION)
    for name, event in TRIGGERS.items():
        # Transition tables allow one event per trigger.
        op.execute(
            f"CREATE TRIGGER {name} {event} ON chunks REFERENCING NEW TABLE AS written "
            "FOR EACH STATEMENT EXECUTE FUNCTION public.arbor_chunks_match_documents()"
        )


def downgrade() -> None:
    for name in TRIGGERS:
        op.execute(f"DROP TRIGGER {name} ON chunks")
    op.execute("DROP FUNCTION public.arbor_chunks_match_documents()")
    op.create_unique_constraint(
        "uq_documents_id_knowledge_base_project",
        "documents",
        ["id", "knowledge_base_id", "project_id"],
    )
    op.execute(
        "ALTER TABLE chunks ADD CONSTRAINT fk_chunks_document "
        "FOREIGN KEY (document_id, knowledge_base_id, project_id) "
        "REFERENCES documents (id, knowledge_base_id, project_id) ON DELETE CASCADE NOT VALID"
    )
    op.execute("ALTER TABLE chunks VALIDATE CONSTRAINT fk_chunks_document")
    op.drop_constraint("fk_chunks_document_id", "chunks", type_="foreignkey")
