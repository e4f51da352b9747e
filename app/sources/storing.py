"""Writing a sync's items: documents through the upload service, and the items' versions."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import true
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.documents import service as documents
from app.documents.upload import Upload
from app.models import KnowledgeBase
from app.sources import repository
from app.sources.adapters.base import ItemContent, ItemError
from app.sources.view import SourceView

HELD = "its external id is held by another document"


def upload_of(source: SourceView, key: str, content: ItemContent) -> Upload:
    return Upload(
        data=content.data,
        filename=content.filename,
        content_type=content.content_type,
        format=content.format,
        title=content.title,
        metadata={**source.metadata},
        source_uri=content.source_uri,
        external_id=key,
        access=source.access,
    )


async def store(
    session: AsyncSession,
    source: SourceView,
    uploads: Sequence[tuple[str, Upload, str]],
    *,
    settings: Settings,
) -> tuple[list[tuple[str, uuid.UUID, bool]], list[dict[str, str]]]:
    """Queue the uploads (item key, upload, format) as documents of the source: ([(key,
    document id, created)], item errors). An external id held by a document of another
    source, or by an upload, is that item's error: a source never takes a document over."""
    kb = await session.get(KnowledgeBase, source.knowledge_base_id)
    if kb is None:
        raise ItemError("the knowledge base is gone")
    owners = await documents.external_id_sources(session, kb, [key for key, _, _ in uploads])
    errors = []
    mine = []
    for key, upload, fmt in uploads:
        if key in owners and owners[key] != source.id:
            errors.append({"item": key, "error": HELD})
        else:
            mine.append((key, upload, fmt))
    stored = await documents.create_many(
        session, kb, [(upload, fmt) for _, upload, fmt in mine], settings=settings, visible=true()
    )
    pairs = [(document.id, key) for (key, _, _), (document, _) in zip(mine, stored, strict=True)]
    await documents.mark_source(session, source.id, pairs)
    results = [
        (key, document.id, created)
        for (key, _, _), (document, created) in zip(mine, stored, strict=True)
    ]
    return results, errors


def item_row(
    source: SourceView,
    run_id: uuid.UUID,
    key: str,
    version: str | None,
    sha: str | None,
    *,
    keep_sha: bool = False,
) -> dict[str, Any]:
    return {
        "source_id": source.id,
        "item_key": key,
        "project_id": source.project_id,
        "version": version,
        "content_sha256": sha,
        "run_id": run_id,
        "keep_sha": keep_sha,
    }


async def upsert_items(session: AsyncSession, rows: list[dict[str, Any]]) -> None:
    """Write item rows; a touched item keeps its stored hash (only its version moved)."""
    touched = [row for row in rows if row.pop("keep_sha")]
    if touched:
        stored = await repository.items_by_keys(
            session, touched[0]["source_id"], [row["item_key"] for row in touched]
        )
        for row in touched:
            found = stored.get(row["item_key"])
            row["content_sha256"] = found.content_sha256 if found is not None else None
    await repository.upsert_items(session, rows)
