"""Pushed records (`POST .../sources/{source}/records`): each record one document of a
`records` source, upserted or deleted in order in the request's transaction."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.documents import service as documents
from app.documents.upload import Upload, precheck
from app.kit.errors import Conflict
from app.knowledge_bases import service as knowledge_bases
from app.models import KnowledgeBase, Source
from app.observability.metrics import record_source_items
from app.sources import repository
from app.sources.schemas import RecordResult, RecordsPush, RecordWrite
from app.sources.storing import store
from app.sources.view import SourceView

# A pushed record's result as the sync count it adds to (a delete of an absent record: none).
PUSH_COUNTS = {
    "created": "to_add",
    "updated": "to_update",
    "deleted": "to_delete",
    "unchanged": "unchanged",
}


def _record_text(record: RecordWrite) -> str:
    if record.content is not None:
        return record.content
    assert record.fields is not None
    parts = []
    for name, value in record.fields.items():
        shown = value if isinstance(value, str) else _json(value)
        parts.append(f"## {name}\n\n{shown}")
    return "\n\n".join(parts)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


async def push_records(
    session: AsyncSession,
    kb: KnowledgeBase,
    source: Source,
    data: RecordsPush,
    *,
    settings: Settings,
) -> list[RecordResult]:
    """Upsert and delete records in one transaction, in order; each is one document."""
    if source.kind != "records":
        raise Conflict(f"Source {source.name!r} is a {source.kind} source; records are pushed "
                       "to `records` sources only.")  # fmt: skip
    view = SourceView.of(source)
    found = await repository.items_by_keys(session, source.id, [r.record_id for r in data.records])
    existing = set(found)
    results: list[RecordResult] = []
    for record in data.records:
        if record.op == "delete":
            deleted = await documents.delete_of_source(
                session, kb, source.id, record_ids=[record.record_id]
            )
            await repository.delete_items(session, source.id, [record.record_id])
            existed = record.record_id in existing or deleted > 0
            existing.discard(record.record_id)
            results.append(RecordResult(record_id=record.record_id, op="delete",
                                        result="deleted" if existed else "absent",
                                        document_id=None))  # fmt: skip
            continue
        access = record.access.model_dump() if record.access is not None else view.access
        upload = Upload(
            data=_record_text(record).encode("utf-8"),
            is_text=True,
            format="markdown",
            title=record.title,
            metadata={**view.metadata, **record.metadata},
            external_id=record.record_id,
            access=access,
        )
        fmt = precheck(upload)
        knowledge_bases.check_chunking(kb, None, document_format=fmt)
        written, errors = await store(session, view, [(record.record_id, upload, fmt)],
                                      settings=settings)  # fmt: skip
        if errors:
            raise Conflict(f"Record {record.record_id!r}: {errors[0]['error']}.")
        _, document_id, created = written[0]
        sha = hashlib.sha256(upload.data).hexdigest()
        await repository.upsert_items(
            session,
            [{"source_id": source.id, "item_key": record.record_id,
              "project_id": source.project_id, "version": None, "content_sha256": sha,
              "run_id": None}],
        )  # fmt: skip
        was = record.record_id in existing
        existing.add(record.record_id)
        result = "unchanged" if not created else ("updated" if was else "created")
        results.append(RecordResult(record_id=record.record_id, op="upsert", result=result,
                                    document_id=document_id))  # fmt: skip
    # At the end: a record refused above fails the whole push, which then changed nothing.
    outcomes = Counter(PUSH_COUNTS.get(r.result, "") for r in results)
    record_source_items(kind=source.kind, counts=outcomes)
    return results
