"""A stored document's tree as the API reads it: the whole tree, one node, a node's range,
its ancestors; a node the tree does not have is a 404."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Response
from sqlalchemy.ext.asyncio import AsyncSession

from app.documents import repository
from app.ingestion.stored import stored_root
from app.ingestion.tree import DocumentNode, ancestors, find_node
from app.kit.errors import Conflict, NotFound
from app.models import Document


def _no_tree(document: Document) -> Conflict:
    return Conflict(f"Document {document.id} has no tree yet (status {document.status!r}).")


def tree_of(document: Document) -> DocumentNode:
    if document.tree is None:
        raise _no_tree(document)
    return stored_root(document.tree["root"])


async def tree_response(session: AsyncSession, document: Document) -> Response:
    """The whole tree (`TreeRead`) as JSON, its root passed through as Postgres writes it.

    The stored root is the JSON of a validated tree (every write dumps one), so the response
    holds the same objects, in the key order of JSONB. Decoding it into nodes and encoding them
    again cost a 2 MB Markdown document (a 13 MB tree) about 2 s and hundreds of MB; Postgres
    writes the text out in about 0.15 s.
    """
    found = await repository.tree_json(session, document.id)
    if found is None:
        raise _no_tree(document)
    root, page_count, ocr_pages = found
    head = json.dumps(
        {
            "document_id": str(document.id),
            "format": document.format,
            "page_count": page_count,
            "ocr_pages": ocr_pages,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )
    body = f'{head[:-1]},"root":{root}}}'
    return Response(body.encode(), media_type="application/json")


async def node_response(session: AsyncSession, document: Document, node_id: str) -> Response:
    """One node with its subtree (`AnyNode`) as JSON, found and written out by Postgres, as the
    whole tree is (`tree_response`); a 2 MB document's node took 2.2 s decoded in Python."""
    has_tree, node = await repository.tree_node_json(session, document.id, node_id)
    if not has_tree:
        raise _no_tree(document)
    if node is None:
        raise NotFound(f"No node {node_id!r} in document {document.id}.")
    return Response(node.encode(), media_type="application/json")


async def node_range(
    session: AsyncSession, document: Document, node_id: str
) -> tuple[int, int] | None:
    """The node's character range; 404 unless the document's tree has the node. None for a
    document without a tree (its chunks written through the chunk API, with node paths of the
    client's own): any id is accepted there."""
    has_tree, found = await repository.tree_node_json(session, document.id, node_id, part=".range")
    if not has_tree:
        return None
    if found is None:
        raise NotFound(f"No node {node_id!r} in document {document.id}.")
    node_range = json.loads(found)
    return int(node_range["start_offset"]), int(node_range["end_offset"])


def ancestors_or_404(document: Document, node_id: str) -> list[dict[str, Any]]:
    root = tree_of(document)
    if find_node(root, node_id) is None:
        raise NotFound(f"No node {node_id!r} in document {document.id}.")
    # Ancestors without their subtrees: the caller wants the path, not the whole document.
    return [node.model_dump(mode="json", exclude={"children"}) for node in ancestors(root, node_id)]
