"""Rules about knowledge sources: the registry, starting syncs, pushed records, deletion."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import ValidationError
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.engine import Database
from app.documents import service as documents
from app.jobs import repository as jobs_repository
from app.kit.errors import Conflict, NotFound, ValidationFailed
from app.kit.pagination import Page, decode_time_cursor, encode_time_cursor
from app.models import AuditEvent, KnowledgeBase, Source, SourceRun
from app.observability.metrics import record_source_health, record_source_sync
from app.sources import repository
from app.sources.adapters import adapter_for
from app.sources.adapters.base import Known
from app.sources.schemas import (
    KIND_FIELDS,
    ScheduleRead,
    SourceCreate,
    SourceHealthRead,
    SourceRead,
    SourceRunRead,
    SourceUpdate,
    SyncPlanRead,
    every_seconds,
)
from app.sources.sync import JOB_KIND, Syncer, Tally, run_seconds
from app.sources.view import SourceView


def _every(seconds: int) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def to_read(source: Source) -> SourceRead:
    schedule = None
    if source.schedule_every_s is not None:
        schedule = ScheduleRead(
            every=_every(source.schedule_every_s), next_run_at=source.next_run_at
        )
    return SourceRead.model_validate(
        {
            "id": source.id,
            "knowledge_base_id": source.knowledge_base_id,
            "name": source.name,
            "kind": source.kind,
            "config": source.config,
            "access": source.access,
            "metadata": source.metadata_,
            "schedule": schedule,
            "created_at": source.created_at,
            "updated_at": source.updated_at,
        }
    )


def run_to_read(run: SourceRun) -> SourceRunRead:
    duration = run_seconds(run)
    return SourceRunRead.model_validate(
        {
            "id": run.id,
            "source_id": run.source_id,
            "status": run.status,
            "trigger": run.trigger,
            "dry_run": run.dry_run,
            "counts": run.counts,
            "errors": run.errors,
            "error": run.error,
            "created_at": run.created_at,
            "started_at": run.started_at,
            "finished_at": run.finished_at,
            "duration_s": duration,
        }
    )


def _config(kind: str, fields: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """The kind's fields, checked by its model and by its adapter (roots, URLs)."""
    adapter = adapter_for(kind)
    try:
        config = adapter.config_model.model_validate(fields).model_dump(mode="json")
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ValidationFailed(f"`{where}`: {first['msg']}") from exc
    adapter.check(config, settings)
    return config


async def get_or_404(session: AsyncSession, kb: KnowledgeBase, ref: str) -> Source:
    source = await repository.by_ref(session, kb.id, ref)
    if source is None:
        raise NotFound(f"No source {ref!r} in knowledge base {kb.name!r}.")
    return source


async def create(
    session: AsyncSession, kb: KnowledgeBase, data: SourceCreate, *, settings: Settings
) -> Source:
    config = _config(data.kind, data.kind_fields(), settings)
    every = every_seconds(data.schedule.every) if data.schedule is not None else None
    source = Source(
        id=uuid.uuid4(),
        project_id=kb.project_id,
        knowledge_base_id=kb.id,
        name=data.name,
        kind=data.kind,
        config=config,
        metadata_=data.metadata,
        schedule_every_s=every,
        next_run_at=None if every is None else datetime.now(UTC) + timedelta(seconds=every),
    )
    if data.access is not None:
        source.access = data.access.model_dump()
    try:
        # Added inside the savepoint: a refused row leaves the session with it, or the
        # request's commit would try it again (a 500 after the 409).
        async with session.begin_nested():
            session.add(source)
            await session.flush()
    except IntegrityError as exc:
        raise Conflict(f"Knowledge base {kb.name!r} has a source named {data.name!r}.") from exc
    await session.refresh(source)
    return source


async def update(
    session: AsyncSession, source: Source, data: SourceUpdate, *, settings: Settings
) -> Source:
    given = data.model_fields_set
    values: dict[str, Any] = {}
    fields = data.kind_fields()
    foreign = sorted(set(fields) - set(KIND_FIELDS[source.kind]))
    if foreign:
        raise ValidationFailed(f"A {source.kind} source does not take {', '.join(foreign)}.")
    if fields:
        values["config"] = _config(source.kind, {**source.config, **fields}, settings)
    if "name" in given and data.name is not None:
        values["name"] = data.name
    if "access" in given:
        values["access"] = None if data.access is None else data.access.model_dump()
    if "metadata" in given and data.metadata is not None:
        values["metadata_"] = data.metadata
    if "schedule" in given:
        every = every_seconds(data.schedule.every) if data.schedule is not None else None
        values["schedule_every_s"] = every
        values["next_run_at"] = (
            None if every is None else datetime.now(UTC) + timedelta(seconds=every)
        )
    if values:
        try:
            async with session.begin_nested():
                await repository.change(session, source, values)
        except IntegrityError as exc:
            raise Conflict(f"The knowledge base has a source named {data.name!r}.") from exc
    return source


async def list_page(
    session: AsyncSession, kb: KnowledgeBase, *, limit: int, cursor: str | None
) -> Page[SourceRead]:
    rows, total = await repository.list_page(
        session, kb.id, after=decode_time_cursor(cursor), limit=limit + 1
    )
    next_cursor = None
    if len(rows) > limit:
        next_cursor = encode_time_cursor(rows[limit - 1].created_at, rows[limit - 1].id)
    return Page(
        items=[to_read(s) for s in rows[:limit]], total=total, limit=limit, next_cursor=next_cursor
    )


async def delete(
    session: AsyncSession, kb: KnowledgeBase, source: Source, *, keep_documents: bool
) -> None:
    """Delete the source with its documents, or keep them as plain uploads."""
    locked = await repository.by_ref(session, kb.id, str(source.id), for_update=True)
    if locked is None:
        return
    if keep_documents:
        await documents.detach_source(session, source.id)
    else:
        await documents.delete_of_source(session, kb, source.id)
    await session.delete(locked)
    await session.flush()


def _new_run(source: Source, *, trigger: str, dry_run: bool) -> SourceRun:
    return SourceRun(
        id=uuid.uuid4(),
        project_id=source.project_id,
        knowledge_base_id=source.knowledge_base_id,
        source_id=source.id,
        status="queued",
        trigger=trigger,
        dry_run=dry_run,
        counts={},
        errors=[],
    )


async def start_run(
    session: AsyncSession, source: Source, *, settings: Settings, trigger: str = "manual"
) -> SourceRun:
    """Queue a sync run as a durable job; 409 while one of the source's runs is under way."""
    locked = await repository.by_ref(
        session, source.knowledge_base_id, str(source.id), for_update=True
    )
    if locked is None:
        raise NotFound(f"No source {source.id}.")
    active = await repository.active_run(session, source.id)
    if active is not None:
        raise Conflict(
            f"Source {source.name!r} has a sync under way (run {active.id}); one at a time.",
            extra={"run_id": str(active.id)},
        )
    run = await _queue_run(session, source, trigger=trigger, settings=settings)
    await session.flush()
    await session.refresh(run)
    return run


async def _queue_run(
    session: AsyncSession, source: Source, *, trigger: str, settings: Settings
) -> SourceRun:
    """A run of `source` and the job that carries it out, in the caller's transaction."""
    run = _new_run(source, trigger=trigger, dry_run=False)
    session.add(run)
    await session.flush()
    session.add(
        jobs_repository.new_job(
            project_id=source.project_id,
            knowledge_base_id=source.knowledge_base_id,
            document_id=None,
            kind=JOB_KIND,
            payload={"run_id": str(run.id)},
            max_attempts=settings.job_max_attempts,
        )
    )
    return run


async def dry_run(database: Database, settings: Settings, source: Source) -> SyncPlanRead:
    """What a sync would do now, recorded as a dry run; nothing else is written."""
    view = SourceView.of(source)
    async with database.transaction(project_id=source.project_id) as session:
        known = {
            item.item_key: Known(item.version, item.content_sha256)
            for item in await repository.items(session, source.id)
        }
    started = datetime.now(UTC)
    error = None
    tally = Tally()
    try:
        tally = await Syncer(database, settings).dry_run(view, known)
    except Exception as exc:
        if type(exc).__name__ != "SourceUnavailable":
            raise
        error = str(exc)
    async with database.transaction(project_id=source.project_id) as session:
        run = _new_run(source, trigger="manual", dry_run=True)
        run.counts = tally.counts
        run.errors = tally.errors
        run.error = error
        run.status = "failed" if error else "succeeded"
        run.started_at = started
        run.finished_at = func.now()
        session.add(run)
        await session.flush()
        await session.refresh(run)
    record_source_sync(
        kind=source.kind, failed=error is not None, dry_run=True, seconds=run_seconds(run),
        counts=tally.counts,
    )  # fmt: skip
    return SyncPlanRead(**run_to_read(run).model_dump(), items=tally.items)


async def health(
    session: AsyncSession, source: Source, *, settings: Settings, actor: str
) -> SourceHealthRead:
    result = await adapter_for(source.kind).health(source.config, settings)
    record_source_health(kind=source.kind, ok=result.ok)
    session.add(
        AuditEvent(
            id=uuid.uuid4(),
            project_id=source.project_id,
            api_key_id=None,
            actor=actor[:100],
            operation="sources-health",
            method="GET",
            path=f"/v1/knowledge-bases/{source.knowledge_base_id}/sources/{source.id}/health",
            status=200 if result.ok else 503,
            target={"kb": str(source.knowledge_base_id), "source": str(source.id)},
            hits=None,
        )
    )
    return SourceHealthRead(ok=result.ok, detail=result.detail, checked_at=datetime.now(UTC))


async def enqueue_due(database: Database, settings: Settings) -> int:
    """Start the runs of scheduled sources that are due, at most `source_sync_concurrency`
    under way at once in the instance and one per source; how many started."""
    async with database.transaction() as session:
        due = await repository.due_sources(session, capacity=settings.source_sync_concurrency)
        for source in due:
            await _queue_run(session, source, trigger="schedule", settings=settings)
            every = source.schedule_every_s or 3600
            source.next_run_at = datetime.now(UTC) + timedelta(seconds=every)
        await session.flush()
    return len(due)
