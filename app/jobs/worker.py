"""A pool of job runners: claim with SKIP LOCKED, keep the lease alive, hand off to a handler."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping

from app.config import Settings
from app.db.engine import Database
from app.db.outage import is_outage
from app.db.tenancy import acting_for
from app.jobs import repository
from app.kit.broadcast import Broadcast
from app.models import Job

logger = logging.getLogger(__name__)

JobHandler = Callable[[Job], Awaitable[None]]
# Runs jobs of one kind and one knowledge base together; settles every one of them.
BatchHandler = Callable[[list[Job]], Awaitable[None]]

# While the database is unavailable a loop pauses after each failed try, from the first pause
# doubling up to the most, instead of polling (and logging a traceback) every `job_poll_s`.
OUTAGE_FIRST_PAUSE_S = 1.0
OUTAGE_MAX_PAUSE_S = 30.0
# How long stopping may wait to give back the jobs the loops held (app shutdown waits on it).
RELEASE_TIMEOUT_S = 5.0


def outage_pause(failures: int) -> float:
    """The pause after the `failures`-th failed try in a row of one loop (1, 2, 4 ... 30 s)."""
    return min(OUTAGE_MAX_PAUSE_S, OUTAGE_FIRST_PAUSE_S * 2.0 ** max(0, failures - 1))


async def record_failure(database: Database, job: Job, exc: Exception, *, delay_s: float) -> None:
    """A failed attempt: its error kept on the job, which runs again after `delay_s`, or fails
    when it has used its attempts. The caller has logged the exception."""
    async with database.transaction() as session:
        await repository.retry_or_fail(
            session, job, reason=f"{type(exc).__name__}: {exc}"[:500], delay_s=delay_s
        )


class WorkerPool:
    """Runs `concurrency` claim loops in this process until stopped."""

    def __init__(
        self,
        database: Database,
        settings: Settings,
        handlers: Mapping[str, JobHandler],
        *,
        concurrency: int,
        batch_handlers: Mapping[str, BatchHandler] | None = None,
        batch_size: int = 1,
    ) -> None:
        self.database = database
        self.settings = settings
        self.handlers = handlers
        self.batch_handlers = batch_handlers or {}
        self.batch_size = batch_size
        self.concurrency = concurrency
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self._wake = asyncio.Event()
        self._stopping = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        # When the loops found the database unavailable, for one warning per outage.
        self._outage_since: float | None = None
        # Jobs claimed and not yet settled by their handler: released when the pool stops.
        self._held: set[uuid.UUID] = set()
        # Notified after each job or batch a loop ran, settled or not: a request waiting for a
        # document (`?wait=true`) looks again at once instead of at its next poll.
        self.ran = Broadcast()
        # Run after the loops stopped (e.g. closing shared embedding batchers).
        self.on_stop: list[Callable[[], Awaitable[None]]] = []

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._loop(n), name=f"arbor-worker-{n}")
            for n in range(self.concurrency)
        ]

    def poke(self) -> None:
        """New work was queued: wake an idle loop now instead of at its next poll."""
        self._wake.set()

    async def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        await self._release_held()
        for callback in self.on_stop:
            await callback()

    async def run_once(self) -> bool:
        """Claim and run one job (or a batch of like ones); False when there was nothing to do."""
        lease_s = self.settings.job_lease_s
        async with self.database.transaction() as session:
            job = await repository.claim(
                session,
                worker_id=self.worker_id,
                lease_s=lease_s,
                graph_running=self.settings.graph_max_running,
            )
            jobs = [job] if job is not None else []
            if job is not None and job.kind in self.batch_handlers:
                # Only what is already queued: a lone upload never waits for a batch to fill.
                jobs += await repository.claim_more(
                    session,
                    job,
                    limit=self.batch_size - 1,
                    max_bytes=self.settings.ingest_batch_bytes,
                    worker_id=self.worker_id,
                    lease_s=lease_s,
                )
        if job is None:
            return False
        batch_handler = self.batch_handlers.get(job.kind)
        handler = self.handlers.get(job.kind)
        if batch_handler is None and handler is None:
            async with self.database.transaction() as session:
                await repository.finish(
                    session, job.id, status="failed", error=f"no handler for {job.kind!r}"
                )
            return True
        held = [claimed.id for claimed in jobs]
        self._held.update(held)
        heartbeat = asyncio.create_task(self._heartbeat(held))
        cancelled = False
        try:
            # The handler's transactions see only the job's project (row-level security);
            # a batch is of one knowledge base, hence of one project.
            with acting_for(job.project_id):
                if batch_handler is not None:
                    await batch_handler(jobs)
                elif handler is not None:
                    await handler(job)
        except asyncio.CancelledError:
            # Stopped mid-job: the jobs stay held, for stop() to give back.
            cancelled = True
            raise
        finally:
            if not cancelled:
                self._held.difference_update(held)
                self.ran.notify()
            heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await heartbeat
        return True

    async def _release_held(self) -> None:
        """Give back the jobs the stopped loops held, so that the next worker (or this server
        after a restart) runs them at once rather than after their lease, and the stop does
        not cost them an attempt. A database that does not answer within
        RELEASE_TIMEOUT_S leaves them to their leases, as a crash would."""
        held, self._held = sorted(self._held), set()
        if not held:
            return
        try:
            async with asyncio.timeout(RELEASE_TIMEOUT_S):
                async with self.database.transaction() as session:
                    released = await repository.release(session, held, worker_id=self.worker_id)
        except Exception as exc:
            logger.warning(
                "worker %s: could not release %d held jobs (%s: %s); they run again when "
                "their leases expire",
                self.worker_id,
                len(held),
                type(exc).__name__,
                exc,
            )
            return
        logger.info("worker %s: released %d held jobs on stop", self.worker_id, released)

    async def _heartbeat(self, job_ids: list[uuid.UUID]) -> None:
        interval = max(self.settings.job_lease_s / 3, 0.5)
        while True:
            await asyncio.sleep(interval)
            try:
                async with self.database.transaction() as session:
                    await repository.extend_lease(
                        session,
                        job_ids,
                        worker_id=self.worker_id,
                        lease_s=self.settings.job_lease_s,
                    )
            except Exception as exc:
                # A beat lost to an outage is tried again at the next one; ended by it, the
                # lease would run out under a job that is still running.
                if not is_outage(exc):
                    raise

    async def _loop(self, number: int) -> None:
        failures = 0
        while not self._stopping.is_set():
            try:
                worked = await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if is_outage(exc):
                    failures += 1
                    self._outage_began(exc)
                    await self._pause(outage_pause(failures))
                    continue
                # A broken job or a database blip must not kill the loop; the lease brings
                # the job back to another attempt.
                logger.exception("worker %s-%d: job loop error", self.worker_id, number)
                worked = False
            else:
                failures = 0
                self._outage_ended()
            if worked:
                continue
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.settings.job_poll_s)

    def _outage_began(self, exc: Exception) -> None:
        if self._outage_since is not None:
            return
        self._outage_since = time.monotonic()
        logger.warning(
            "worker %s: the database is unavailable (%s); job loops pause, up to %.0f s "
            "between tries, until it answers",
            self.worker_id,
            exc.__cause__ or exc,
            OUTAGE_MAX_PAUSE_S,
        )

    def _outage_ended(self) -> None:
        if self._outage_since is None:
            return
        lasted = time.monotonic() - self._outage_since
        self._outage_since = None
        logger.warning("worker %s: the database answers again after %.0f s", self.worker_id, lasted)

    async def _pause(self, seconds: float) -> None:
        """Wait `seconds`, or less when the pool stops."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), timeout=seconds)
