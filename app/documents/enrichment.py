"""Node enrichment: summaries, entities and keywords that an enricher writes onto a tree.

The reference library's documentEnricher runs a model over each node; Arbor has no generative
model of its own, so enrichment arrives through the API from whatever the client runs, and is
kept with the tree: tree, node and ancestor reads return it, search's `include=context` returns
the ancestors' summaries (the reference's `parentSummaries`), and a reindex keeps it.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping

from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.documents import repository
from app.documents.stored_tree import TreeJson
from app.documents.stored_tree import tree_json as stored_tree_json
from app.documents.tree_reads import tree_of
from app.ingestion.parsers.base import ParsedDocument
from app.ingestion.tree import (
    MAX_NODE_ID,
    DocumentNode,
    NodeEnrichment,
    enrichments,
    iter_nodes,
    with_enrichments,
)
from app.kit.errors import NotFound, ValidationFailed
from app.kit.schemas import RequestModel
from app.kit.strings import StoredText
from app.models import Document

MAX_NODES_PER_WRITE = 10_000


class NodeEnrichmentWrite(RequestModel):
    node_id: StoredText = Field(min_length=1, max_length=MAX_NODE_ID)
    enrichment: NodeEnrichment | None = Field(description="null removes the node's enrichment.")


class EnrichmentWrite(RequestModel):
    """Enrichment for many nodes of one document, written together or not at all."""

    nodes: list[NodeEnrichmentWrite] = Field(min_length=1, max_length=MAX_NODES_PER_WRITE)


class EnrichmentResult(BaseModel):
    document_id: uuid.UUID
    written: int = Field(description="Nodes whose enrichment this request set or removed.")
    enriched_nodes: int = Field(description="Nodes of the tree that now have an enrichment.")


async def write(
    session: AsyncSession,
    document: Document,
    updates: Mapping[str, NodeEnrichment | None],
    *,
    missing_is_404: bool = False,
) -> DocumentNode:
    """Set (or, with None, remove) these nodes' enrichment and return the new tree.

    Every id must name a node of the tree: 404 for the one-node route, 422 naming them for a
    batch. The document row is locked, so concurrent writers and the pipeline's store step
    (which carries enrichment into a reindexed tree) see each other's writes.
    """
    await session.refresh(document, with_for_update=True)
    await repository.load_tree(session, document)
    root = tree_of(document)
    known = {node.node_id for node in iter_nodes(root)}
    missing = [node_id for node_id in updates if node_id not in known]
    if missing and missing_is_404:
        raise NotFound(f"No node {missing[0]!r} in document {document.id}.")
    if missing:
        raise ValidationFailed(
            f"{len(missing)} node id(s) are not in document {document.id}'s tree: "
            + ", ".join(repr(node_id) for node_id in missing[:10])
        )
    root = with_enrichments(root, updates)
    assert document.tree is not None
    document.tree = {**document.tree, "root": root.model_dump(mode="json")}
    return root


def batch_updates(body: EnrichmentWrite) -> dict[str, NodeEnrichment | None]:
    """The batch as one update per node; a node named twice is a 422 (which one wins?)."""
    updates: dict[str, NodeEnrichment | None] = {}
    for item in body.nodes:
        if item.node_id in updates:
            raise ValidationFailed(f"Node {item.node_id!r} is named more than once.")
        updates[item.node_id] = item.enrichment
    return updates


def result(document: Document, root: DocumentNode, written: int) -> EnrichmentResult:
    return EnrichmentResult(
        document_id=document.id, written=written, enriched_nodes=len(enrichments(root))
    )


def carried_over_json(kept: Mapping[str, NodeEnrichment] | None, tree_json: TreeJson) -> TreeJson:
    """The new tree's JSON with `kept`, the enrichment the stored tree's nodes had
    (`repository.stored_enrichments`), where it has the same node: a reindex rebuilds the
    tree, and enrichment written meanwhile must not be lost. The JSON is parsed again only
    when there is enrichment to carry over."""
    if not kept:
        return tree_json
    parsed = ParsedDocument.model_validate_json(bytes(tree_json))
    enriched = parsed.model_copy(update={"root": with_enrichments(parsed.root, kept)})
    return stored_tree_json(enriched)
