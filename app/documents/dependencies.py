"""Load the document named in the path, within the knowledge base."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path

from app.auth.dependencies import VisibleDocumentsDep
from app.db.dependencies import SessionDep
from app.documents import repository
from app.kit.errors import NotFound
from app.knowledge_bases.dependencies import KnowledgeBaseDep
from app.models import Document

DocumentRef = Annotated[
    str, Path(min_length=1, max_length=256, description="The document's id or external id.")
]


async def get_document(
    doc: DocumentRef, kb: KnowledgeBaseDep, session: SessionDep, visible: VisibleDocumentsDep
) -> Document:
    """The document, if the caller may read it (an unreadable one is as missing as any)."""
    found = await repository.by_ref(session, kb, doc, visible=visible)
    if found is None:
        raise NotFound(f"No document {doc!r} in knowledge base {kb.name!r}.")
    return found


async def get_document_with_tree(
    doc: DocumentRef, kb: KnowledgeBaseDep, session: SessionDep, visible: VisibleDocumentsDep
) -> Document:
    """The document with its stored tree loaded, for the routes that read or change the tree."""
    found = await repository.by_ref(session, kb, doc, visible=visible, with_tree=True)
    if found is None:
        raise NotFound(f"No document {doc!r} in knowledge base {kb.name!r}.")
    return found


DocumentDep = Annotated[Document, Depends(get_document)]
DocumentWithTreeDep = Annotated[Document, Depends(get_document_with_tree)]
