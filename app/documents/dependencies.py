"""Load the document named in the path, within the knowledge base."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Depends, Path
from sqlalchemy import or_, select

from app.auth.dependencies import VisibleDocumentsDep
from app.db.dependencies import SessionDep
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
    try:
        by_id = Document.id == uuid.UUID(doc)
    except ValueError:
        by_id = None
    query = select(Document).where(Document.knowledge_base_id == kb.id, visible)
    if by_id is None:
        query = query.where(Document.external_id == doc)
    else:
        # An external id may look like another document's id: the document with that id wins.
        query = query.where(or_(by_id, Document.external_id == doc)).order_by(by_id.desc())
    found = await session.scalar(query.limit(1))
    if found is None:
        raise NotFound(f"No document {doc!r} in knowledge base {kb.name!r}.")
    return found


DocumentDep = Annotated[Document, Depends(get_document)]
