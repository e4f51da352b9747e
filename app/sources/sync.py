"""A source's sync: what changed upstream, applied through the document upload service.

One walk serves the dry run and the real run, so their counts agree: items are listed, an item
whose listed version equals the stored one is unchanged unread, any other is fetched and
compared by content hash (an HTTP 304 is unchanged too), and stored items no longer listed are
deleted. A real run applies each batch in one transaction: the documents (queued by
`documents.service.create_many`, which makes a changed item a new version of its document,
replacing the old one when ready), the items' new versions, and the run's counts. A run killed
mid-way is claimed again when its job's lease runs out and skips what it already stored
(`source_items.run_id`); external ids keep it from making a document twice.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.engine import Database
from app.db.outage import is_outage
from app.documents import service as documents
from app.documents.upload import Upload, precheck
from app.jobs import repository as jobs_repository
from app.kit.errors import AppError
from app.knowledge_bases import service as knowledge_bases
from app.models import Job, KnowledgeBase, Source, SourceRun
from app.observability.metrics import record_source_sync
from app.sources import repository
from app.sources.adapters import adapter_for
from app.sources.adapters.base import ItemContent, ItemError, ItemRef, Known
from app.sources.outcomes import record_run_end
from app.sources.storing import HELD, item_row, store, upload_of, upsert_items
from app.sources.view import SourceView

logger = logging.getLogger(__name__)

JOB_KIND = "source-sync"
BATCH = 32
COUNT_KEYS = ("to_add", "to_update", "to_delete", "unchanged", "failed")
ACTION_COUNT = {"add": "to_add", "update": "to_update", "delete": "to_delete"}
# Item errors kept on a run (the count says how many there were).
MAX_RUN_ERRORS = 1000


@dataclass(slots=True)
class Work:
    key: str
    action: str  # add, update, unchanged
    content: ItemContent | None = None
    sha: str | None = None
    version: str | None = None
    version_changed: bool = False


@dataclass(slots=True)
class Tally:
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNT_KEYS, 0))
    errors: list[dict[str, str]] = field(default_factory=list)
    items: list[dict[str, str]] = field(default_factory=list)

    def fail(self, key: str, error: str) -> None:
        self.counts["failed"] += 1
        if len(self.errors) < MAX_RUN_ERRORS:
            self.errors.append({"item": key, "error": error})


# Applies one batch: (decided items, keys to delete, item errors of the batch).
Apply = Callable[[list[Work], list[str], list[dict[str, str]]], Awaitable[None]]


def _batches(values: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [values[i : i + size] for i in range(0, len(values), size)]


async def walk(
    source: SourceView,
    settings: Settings,
    known: dict[str, Known],
    *,
    done: frozenset[str] = frozenset(),
    apply: Apply | None,
    tally: Tally,
    held: Callable[[list[str]], Awaitable[set[str]]] | None = None,
) -> None:
    """Decide every item; with `apply` store each batch, else count it into `tally` (a dry
    run, which also lists the items). SourceUnavailable when the source cannot be listed."""
    adapter = adapter_for(source.kind)
    if adapter.pushed:
        tally.counts["unchanged"] += len(known)
        return
    listing = await adapter.list_items(source.config, settings)
    listed = {item.key for item in listing}
    for batch in _batches([item for item in listing if item.key not in done], BATCH):
        works: list[Work] = []
        errors: list[dict[str, str]] = []
        for item in batch:
            try:
                works.append(await _decide(source, settings, item, known.get(item.key)))
            except ItemError as exc:
                errors.append({"item": item.key, "error": str(exc)})
        if apply is not None:
            await apply(works, [], errors)
        else:
            # Keys a document of another source (or an upload) holds: the real run refuses
            # them (`store`), so the dry run counts them as it will.
            taken = await held([w.key for w in works if w.content is not None]) if held else set()
            for work in works:
                if work.key in taken:
                    tally.fail(work.key, HELD)
                    continue
                if work.content is not None:
                    try:
                        precheck(upload_of(source, work.key, work.content))
                    except AppError as exc:
                        tally.fail(work.key, exc.detail)
                        continue
                tally.counts[ACTION_COUNT.get(work.action, "unchanged")] += 1
                tally.items.append({"item": work.key, "action": work.action})
            for error in errors:
                tally.fail(error["item"], error["error"])
    gone = sorted(set(known) - listed)
    for batch in _batches(gone, BATCH * 4):
        if apply is not None:
            await apply([], list(batch), [])
        else:
            tally.counts["to_delete"] += len(batch)
            tally.items += [{"item": key, "action": "delete"} for key in batch]


async def _decide(
    source: SourceView, settings: Settings, item: ItemRef, known: Known | None
) -> Work:
    if known is not None and item.version is not None and item.version == known.version:
        return Work(item.key, "unchanged", version=known.version)
    content = await adapter_for(source.kind).fetch(source.config, settings, item, known)
    if content.not_modified:
        return Work(item.key, "unchanged", version=known.version if known else content.version)
    sha = hashlib.sha256(content.data).hexdigest()
    if known is not None and known.content_sha256 == sha:
        # Touched, not changed: only the stored version moves.
        return Work(item.key, "unchanged", version=content.version, version_changed=True)
    action = "add" if known is None else "update"
    return Work(item.key, action, content=content, sha=sha, version=content.version)


class Syncer:
    """Runs syncs: dry runs for requests, real runs as `source-sync` jobs."""

    def __init__(self, database: Database, settings: Settings) -> None:
        self.database = database
        self.settings = settings
        self.poke: Callable[[], None] = lambda: None

    async def _known(self, session: AsyncSession, source_id: uuid.UUID) -> dict[str, Known]:
        return {
            item.item_key: Known(item.version, item.content_sha256)
            for item in await repository.items(session, source_id)
        }

    async def dry_run(self, source: SourceView, known: dict[str, Known]) -> Tally:
        async def held(keys: list[str]) -> set[str]:
            async with self.database.transaction(project_id=source.project_id) as session:
                kb = await session.get(KnowledgeBase, source.knowledge_base_id)
                if kb is None:
                    return set()
                owners = await documents.external_id_sources(session, kb, keys)
            return {key for key, owner in owners.items() if owner != source.id}

        tally = Tally()
        await walk(source, self.settings, known, apply=None, tally=tally, held=held)
        return tally

    async def run(self, run_id: uuid.UUID) -> None:
        """Run (or resume) a queued run to its end, recording how it ended."""
        async with self.database.transaction() as session:
            run = await session.get(SourceRun, run_id, with_for_update=True)
            if run is None or run.status not in ("queued", "running"):
                return  # its source was deleted, or it ended already
            source = await session.get(Source, run.source_id)
            if source is None:
                return
            view = SourceView.of(source)
            items = await repository.items(session, source.id)
            known = {item.item_key: Known(item.version, item.content_sha256) for item in items}
            done = frozenset(item.item_key for item in items if item.run_id == run_id)
            if run.status == "running":
                # Resumed: unchanged items are counted again, the stored ones skipped.
                run.counts = {**run.counts, "unchanged": 0}
            run.status = "running"
            run.started_at = run.started_at or func.now()
        error: str | None = None
        try:
            await walk(
                view,
                self.settings,
                known,
                done=done,
                apply=lambda works, gone, errors: self._apply(view, run_id, works, gone, errors),
                tally=Tally(),
            )
        except Exception as exc:
            if is_outage(exc):
                raise  # the job's lease brings the run back, to resume
            error = str(exc) or type(exc).__name__
            if not isinstance(exc, AppError) and type(exc).__name__ != "SourceUnavailable":
                logger.exception("sync run %s of source %s failed", run_id, view.id)
                error = f"internal error ({type(exc).__name__})"
        async with self.database.transaction() as session:
            ended = await finish(session, view, run_id, error=error)
            if ended is not None:
                counts, seconds = dict(ended.counts), run_seconds(ended)
        # Once committed: a run whose end was rolled back is resumed and counted then.
        if ended is not None:
            record_source_sync(
                kind=view.kind, failed=error is not None, dry_run=False, seconds=seconds,
                counts=counts,
            )  # fmt: skip

    async def _apply(
        self,
        source: SourceView,
        run_id: uuid.UUID,
        works: list[Work],
        gone: list[str],
        errors: list[dict[str, str]],
    ) -> None:
        tally = Tally()
        for error in errors:
            tally.fail(error["item"], error["error"])
        writes: list[tuple[str, Upload, str]] = []
        kb_chunking = await self._chunking_check(source)
        for work in works:
            if work.content is None:
                tally.counts["unchanged"] += 1
                continue
            upload = upload_of(source, work.key, work.content)
            try:
                fmt = precheck(upload)
                kb_chunking(fmt)
            except AppError as exc:
                tally.fail(work.key, exc.detail)
                continue
            writes.append((work.key, upload, fmt))
        before = (dict(tally.counts), list(tally.errors))
        try:
            await self._store_batch(source, run_id, works, writes, gone, tally)
        except Exception as exc:
            if is_outage(exc) or len(writes) <= 1:
                raise
            # One item spoiled the batch's transaction: each on its own, to find it.
            for write in writes:
                single = Tally()
                work = next(w for w in works if w.key == write[0])
                try:
                    await self._store_batch(source, run_id, [work], [write], [], single)
                except Exception as item_exc:
                    if is_outage(item_exc):
                        raise
                    logger.warning("sync of %s: item %s failed: %s", source.id, write[0], item_exc)
                    single.fail(write[0], f"could not be stored ({type(item_exc).__name__})")
                    await self._store_batch(source, run_id, [], [], [], single)
            # The batch's unchanged items and deletions, without its writes.
            # What the failed transaction had counted is undone; the batch's unreadable items
            # and its unchanged ones are still to be recorded, with its deletions.
            rest = [w for w in works if w.content is None]
            tally.counts, tally.errors = before
            await self._store_batch(source, run_id, rest, [], gone, tally)
        self.poke()

    async def _chunking_check(self, source: SourceView) -> Callable[[str], None]:
        async with self.database.transaction() as session:
            kb = await session.get(KnowledgeBase, source.knowledge_base_id)
        if kb is None:
            raise ItemError("the knowledge base is gone")

        def check(fmt: str) -> None:
            knowledge_bases.check_chunking(kb, None, document_format=fmt)

        return check

    async def _store_batch(
        self,
        source: SourceView,
        run_id: uuid.UUID,
        works: list[Work],
        writes: list[tuple[str, Upload, str]],
        gone: list[str],
        tally: Tally,
    ) -> None:
        by_key = {work.key: work for work in works}
        async with self.database.transaction() as session:
            results, errors = await store(session, source, writes, settings=self.settings)
            for error in errors:
                tally.fail(error["item"], error["error"])
            rows = []
            for key, _, _ in results:
                work = by_key[key]
                tally.counts[ACTION_COUNT[work.action]] += 1
                rows.append(item_row(source, run_id, key, work.version, work.sha))
            rows += [
                item_row(source, run_id, work.key, work.version, None, keep_sha=True)
                for work in works
                if work.version_changed
            ]
            await upsert_items(session, rows)
            if gone:
                kb = await session.get(KnowledgeBase, source.knowledge_base_id)
                if kb is not None:
                    await documents.delete_of_source(session, kb, source.id, record_ids=gone)
                await repository.delete_items(session, source.id, gone)
                tally.counts["to_delete"] += len(gone)
            run = await session.get(SourceRun, run_id, with_for_update=True)
            if run is not None:
                run.counts = {k: run.counts.get(k, 0) + tally.counts[k] for k in COUNT_KEYS}
                room = MAX_RUN_ERRORS - len(run.errors)
                if room > 0 and tally.errors:
                    run.errors = [*run.errors, *tally.errors[:room]]


def run_seconds(run: SourceRun) -> float | None:
    """How long the run took, once it has ended."""
    if run.started_at is None or run.finished_at is None:
        return None
    return (run.finished_at - run.started_at).total_seconds()


async def finish(
    session: AsyncSession, source: SourceView, run_id: uuid.UUID, *, error: str | None
) -> SourceRun | None:
    """End the run: its status, the event (`source.synced` or `source.failed`) and the audit
    record, in one transaction."""
    run = await session.get(SourceRun, run_id, with_for_update=True)
    if run is None:
        return None
    run.status = "failed" if error is not None else "succeeded"
    run.error = error
    run.finished_at = func.now()
    await session.flush()
    await session.refresh(run)
    record_run_end(session, source, run)
    return run


class SyncJobs:
    """The `source-sync` job handler: one run per job, settled by the run itself."""

    def __init__(self, syncer: Syncer) -> None:
        self.syncer = syncer

    async def handle(self, job: Job) -> None:
        await self.syncer.run(uuid.UUID(str(job.payload["run_id"])))
        async with self.syncer.database.transaction() as session:
            await jobs_repository.finish(session, job.id, status="succeeded")
