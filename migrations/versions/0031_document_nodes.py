"""Each document's tree nodes as rows, kept by a trigger from the tree.

A search hit's context (`include=context`, the chunk-context route) is the chunk's tree path:
its ancestors with their titles, enrichment and first 4,000 characters. It walked the stored
tree from its root, and a JSONB value is read whole: every hit in a 2 MB Markdown document
(a 16 MB tree) decompressed that tree two or three times, and a search of ten such hits took
1.3 s against 93 ms without context. `document_nodes` holds every node without its children,
its text cut to what the context returns, so a path is one index probe per node.

The rows follow the tree, whoever writes it (the store step, enrichment writes, imports,
copies of a knowledge base): a trigger on `documents` replaces a document's rows whenever its
tree is written. It runs as the owner, because the rows are derived from a document row the
caller was allowed to write. Sentences have no rows (see TREE_NODES). Existing trees are
read into rows here; a large table needs a maintenance window for it.

Revision ID: 0031
Revises: 0030
Create Date: 2026-11-28
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APP_ROLE = "arbor_app"
TENANT = (
    "project_id = public.arbor_project_id() "
    "AND public.arbor_knowledge_base_visible(knowledge_base_id)"
)
# The most of a node's text a context returns (app/search/hit_context.py: MAX_PARENT_TEXT).
TEXT_CAP = 4000

# depth 0 is the root; a node's row has no children and its text cut to TEXT_CAP characters.
# Sentences have no rows: three quarters of a tree's nodes, and the last node of a chunk's
# path for 5 of SciFact's 11,089 chunks (a chunk inside one long sentence), whose context
# reads the tree as before (app/search/hit_context.py).
TREE_NODES = f"""
CREATE FUNCTION public.arbor_tree_nodes(tree jsonb)
RETURNS TABLE (node_id text, depth integer, node jsonb, text text, text_length integer)
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog AS $$
    WITH RECURSIVE walk(node, depth) AS (
        SELECT tree->'root', 0
        UNION ALL
        SELECT child, walk.depth + 1
        FROM walk CROSS JOIN LATERAL jsonb_array_elements(
            CASE WHEN jsonb_typeof(walk.node->'children') = 'array'
                 THEN walk.node->'children' ELSE '[]'::jsonb END
        ) AS child
    )
    SELECT node->>'node_id', depth, node - 'children' - 'text',
           left(node->>'text', {TEXT_CAP}), coalesce(length(node->>'text'), 0)
    FROM walk WHERE node->>'node_id' IS NOT NULL AND node->>'kind' IS DISTINCT FROM 'sentence'
$$
"""

SYNC = """
CREATE FUNCTION public.arbor_sync_document_nodes() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM public.document_nodes WHERE document_id = OLD.id;
    END IF;
    IF NEW.tree IS NOT NULL THEN
        INSERT INTO public.document_nodes
            (document_id, node_id, project_id, knowledge_base_id, depth, node, text, text_length)
        SELECT NEW.id, n.node_id, NEW.project_id, NEW.knowledge_base_id, n.depth, n.node,
               n.text, n.text_length
        FROM public.arbor_tree_nodes(NEW.tree) AS n
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$
"""


def upgrade() -> None:
    op.execute(
        "CREATE TABLE document_nodes ("
        "document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE, "
        "node_id text NOT NULL, "
        "project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE, "
        "knowledge_base_id uuid NOT NULL REFERENCES knowledge_bases (id) ON DELETE CASCADE, "
        "depth integer NOT NULL, "
        "node jsonb NOT NULL, "
        "text text NOT NULL, "
        "text_length integer NOT NULL, "
        "CONSTRAINT pk_document_nodes PRIMARY KEY (document_id, node_id))"
    )
    op.execute("ALTER TABLE document_nodes ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE document_nodes FORCE ROW LEVEL SECURITY")
    op.execute(
        f"CREATE POLICY arbor_tenant ON document_nodes TO {APP_ROLE} "
        f"USING ({TENANT}) WITH CHECK ({TENANT})"
    )
    op.execute("CREATE POLICY arbor_owner ON document_nodes TO CURRENT_USER USING (true)")
    op.execute(TREE_NODES)
    op.execute(SYNC)
    op.execute(
        "CREATE TRIGGER documents_sync_nodes AFTER INSERT OR UPDATE OF tree ON documents "
        "FOR EACH ROW EXECUTE FUNCTION public.arbor_sync_document_nodes()"
    )
    op.execute(
        "INSERT INTO document_nodes "
        "(document_id, node_id, project_id, knowledge_base_id, depth, node, text, text_length) "
        "SELECT d.id, n.node_id, d.project_id, d.knowledge_base_id, n.depth, n.node, n.text, "
        "n.text_length FROM documents d CROSS JOIN LATERAL public.arbor_tree_nodes(d.tree) n "
        "WHERE d.tree IS NOT NULL ON CONFLICT DO NOTHING"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER documents_sync_nodes ON documents")
    op.execute("DROP FUNCTION public.arbor_sync_document_nodes()")
    op.execute("DROP FUNCTION public.arbor_tree_nodes(jsonb)")
    op.execute("DROP TABLE document_nodes")
