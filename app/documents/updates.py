"""A document's PATCH: title, metadata, source URI and access list changed in place, with
every copy of them (chunks, events, a pending new version) in the same transaction."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from app.chunks import repository as chunks_repository
from app.documents import repository
from app.documents.schemas import DocumentUpdate
from app.events import repository as events_repository
from app.events import service as events
from app.kit.errors import NotFound
from app.models import Document, KnowledgeBase

# What a PATCH may change: request field -> Document attribute.
UPDATABLE = {
    "title": "title",
    "metadata": "metadata_",
    "source_uri": "source_uri",
    "access": "access",
}


async def update(
    session: AsyncSession,
    kb: KnowledgeBase,
    document: Document,
    data: DocumentUpdate,
    *,
    visible: ColumnElement[bool],
) -> Document:
    """Change the fields the request gives, in place, with every copy of them in the same
    transaction: the chunks' title and metadata, the events' access list, and the pending new
    version of the document's external id (so that the change outlives the replacement).
    Nothing is ingested again. A change that changes nothing writes nothing."""
    wanted = {
        attribute: _request_value(data, field)
        for field, attribute in UPDATABLE.items()
        if field in data.model_fields_set
    }
    # The external id's lock before any row lock, in the order uploads and the pipeline's
    # take-over take them: a pending version's store step now waits for this transaction
    # and then reads what it wrote. (An id the document took since it was read is not
    # locked; its row lock still orders this with the uploads and take-overs of that id.)
    if document.external_id is not None:
        await repository.lock_versions(session, kb.id, external_ids=[document.external_id])
    locked = await repository.lock(session, kb, document.id, visible=visible)
    if locked is None:
        raise NotFound(f"No document {document.id} in knowledge base {kb.name!r}.")
    targets = [locked]
    if locked.external_id is not None:
        pending = await repository.pending_versions(
            session, kb, external_ids={locked.external_id}, document_ids=(), visible=visible
        )
        targets += [version for version, _ in pending]
    changed: list[str] = []
    for target in targets:
        differs = {
            attribute: value
            for attribute, value in wanted.items()
            if not _same_json(getattr(target, attribute), value)
        }
        if not differs:
            continue
        if target is locked:
            changed = [field for field, attribute in UPDATABLE.items() if attribute in differs]
        await repository.update_fields(session, target.id, differs)
        await chunks_repository.copy_document_fields(
            session, target, title=differs.get("title"), metadata=differs.get("metadata_")
        )
        if "access" in differs:
            await events_repository.set_document_access(
                session,
                knowledge_base_id=kb.id,
                document_id=target.id,
                access=differs["access"],
            )
        await session.refresh(target)
    if changed:
        events.document_event(session, locked, "document.updated", changed=changed)
    return locked


def _request_value(data: DocumentUpdate, field: str) -> Any:
    if field == "access":
        return None if data.access is None else data.access.model_dump()
    return getattr(data, field)


def _same_json(current: Any, new: Any) -> bool:
    # JSON's equality, not Python's: there True == 1 and 1 == 1.0, which are other values.
    return json.dumps(current, sort_keys=True) == json.dumps(new, sort_keys=True)
