"""Push the event feed to webhooks: claim due ones, POST their events in order, record.

Several processes may run a dispatcher on one database: a webhook is claimed with SKIP LOCKED
and leased (`leased_until`, past the time its delivery may take), so one process at
a time sends its events. No transaction is open during an HTTP request. Events are read with
the feed's own query (`app.events.repository.page`), scoped to the webhook's project, so a
webhook sees exactly what the project's admin sees at `GET /v1/events`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime

import httpx
from sqlalchemy import true

from app.config import Settings
from app.db.engine import Database
from app.db.outage import is_outage
from app.events import repository as events
from app.events.service import to_read
from app.kit.tls import client_tls_context
from app.models import Event, Webhook
from app.observability.metrics import record_webhook_delivery
from app.webhooks import repository, signing
from app.webhooks.destinations import destination_problem

logger = logging.getLogger(__name__)

USER_AGENT = "Arbor-Webhooks/0.1"
MAX_ERROR_CHARS = 500


def retry_delay_s(attempts: int, settings: Settings) -> float:
    """The wait after the `attempts`-th failure in a row: doubling, capped."""
    return float(
        min(2 ** min(attempts, 32) * settings.webhook_retry_base_s, settings.webhook_retry_max_s)
    )


@dataclass(frozen=True, slots=True)
class Outcome:
    status: int | None
    error: str | None  # None: accepted (2xx)


class WebhookDispatcher:
    """Delivers events to webhooks until stopped; `run_once` is one round (tests)."""

    def __init__(self, database: Database, settings: Settings) -> None:
        self.database = database
        self.settings = settings
        # Redirects are not followed: a 3xx could point anywhere, past the address checks.
        # httpx's own limits (5 s per read by default) would cut a delivery short first.
        self.http = httpx.AsyncClient(
            follow_redirects=False,
            trust_env=False,
            timeout=settings.webhook_timeout_s,
            verify=client_tls_context(trust_env=False),
        )
        self._task: asyncio.Task[None] | None = None
        self._database_down = False
        self._in_flight: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="arbor-webhooks")

    async def stop(self) -> None:
        """Stop sending; a delivery cut short is sent again after its lease (at least once)."""
        tasks = [t for t in (self._task, *self._in_flight) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._task = None
        await self.http.aclose()

    async def run_once(self) -> int:
        """Claim what is due and deliver it; returns how many webhooks were served."""
        claimed = await self.claim(self.settings.webhook_concurrency)
        await asyncio.gather(*(self.deliver(webhook) for webhook in claimed))
        return len(claimed)

    async def claim(self, limit: int) -> list[Webhook]:
        async with self.database.transaction() as session:
            return await repository.claim(
                session, limit=limit, lease_s=self.settings.webhook_lease_s
            )

    async def _loop(self) -> None:
        # Each claimed webhook is delivered in a task of its own: a slow receiver holds up
        # only itself, up to `webhook_concurrency` at once.
        while True:
            free = self.settings.webhook_concurrency - len(self._in_flight)
            claimed: list[Webhook] = []
            if free > 0:
                try:
                    claimed = await self.claim(free)
                except Exception as exc:
                    if not is_outage(exc):
                        logger.exception("claiming webhooks failed; trying again")
                    elif not self._database_down:  # once per outage, not every poll
                        logger.warning("webhooks wait: the database is unavailable (%s)", exc)
                    self._database_down = is_outage(exc)
                else:
                    self._database_down = False
            for webhook in claimed:
                task = asyncio.create_task(self.deliver(webhook), name=f"webhook-{webhook.id}")
                self._in_flight.add(task)
                task.add_done_callback(self._in_flight.discard)
            if not claimed:
                await asyncio.sleep(self.settings.webhook_poll_s)

    async def deliver(self, webhook: Webhook) -> None:
        """Send the webhook's next events in order until one fails or the lease runs short."""
        try:
            await self._deliver(webhook)
        except Exception:
            # The lease lapses and the events are sent again: nothing is skipped.
            logger.exception("delivering to webhook %s failed", webhook.id)

    async def _deliver(self, webhook: Webhook) -> None:
        settings = self.settings
        # Stop starting requests while one could still outlast the lease.
        deadline = time.monotonic() + settings.webhook_lease_s - settings.webhook_timeout_s
        refused = await destination_problem(webhook.url, settings)
        if refused is not None:
            await self._failed(webhook, Outcome(None, f"not sent: the URL {refused}"))
            return
        async with self.database.transaction(project_id=webhook.project_id) as session:
            end = await events.horizon(session)
            batch = await events.page(
                session,
                after=(webhook.cursor_txid, webhook.cursor_id),
                types=webhook.types or (),
                knowledge_base_id=webhook.knowledge_base_id,
                visible=true(),  # its project's admin created it: every document's events
                limit=settings.webhook_batch_size,
            )
        for event in batch:
            if time.monotonic() > deadline:
                await self._release(webhook, skip_to=None)
                return
            outcome = await self.send(webhook, event)
            record_webhook_delivery(
                delivered=outcome.error is None,
                lag_s=(datetime.now(UTC) - event.created_at).total_seconds(),
            )
            if outcome.error is not None:
                await self._failed(webhook, outcome)
                return
            async with self.database.transaction() as session:
                now = await repository.delivered(
                    session, webhook.id, position=(event.txid, event.id), status=outcome.status or 0
                )
            if not repository.same_destination(webhook, now):
                # Deleted, paused or changed since the claim: not one more event to the old
                # address or under the old rules; a changed webhook is claimed again as it is.
                await self._release(webhook, skip_to=None)
                return
        # Every matching event before `end` was read (the page was not full): the cursor may
        # pass the events its filters skip, so they are not read again on every round.
        caught_up = len(batch) < settings.webhook_batch_size
        await self._release(webhook, skip_to=end if caught_up else None)

    async def send(self, webhook: Webhook, event: Event) -> Outcome:
        """POST one event, signed; only a 2xx counts as delivered."""
        body = to_read(event).model_dump_json().encode()
        headers = {
            "content-type": "application/json",
            "user-agent": USER_AGENT,
            **signing.headers(
                webhook.secret, message_id=str(event.id), timestamp=int(time.time()), body=body
            ),
        }
        try:
            # The whole exchange, not each read: a receiver trickling bytes is cut off too.
            # The response body is never read: only its status counts, and what an address
            # answers is not shown back (it would make the webhook a way to read internal
            # services: docs/webhooks.md).
            async with (
                asyncio.timeout(self.settings.webhook_timeout_s),
                self.http.stream("POST", webhook.url, content=body, headers=headers) as response,
            ):
                status = response.status_code
        except TimeoutError:
            return Outcome(None, f"no answer within {self.settings.webhook_timeout_s:g} s")
        except httpx.HTTPError as exc:
            return Outcome(None, f"{type(exc).__name__}: {exc}"[:MAX_ERROR_CHARS])
        if 200 <= status < 300:
            return Outcome(status, None)
        if 300 <= status < 400:
            return Outcome(status, f"HTTP {status}: redirects are not followed")
        return Outcome(status, f"HTTP {status}")

    async def _failed(self, webhook: Webhook, outcome: Outcome) -> None:
        settings = self.settings
        async with self.database.transaction() as session:
            active = await repository.failed(
                session,
                webhook.id,
                status=outcome.status,
                error=outcome.error or "",
                delay_s=retry_delay_s(webhook.attempts + 1, settings),
                disable_after_s=settings.webhook_disable_after_h * 3600,
            )
        if active is False:
            logger.warning(
                "webhook %s turned off: failing for %g h (last: %s)",
                webhook.id,
                settings.webhook_disable_after_h,
                outcome.error,
            )

    async def _release(self, webhook: Webhook, *, skip_to: events.Position | None) -> None:
        async with self.database.transaction() as session:
            await repository.release(session, webhook.id, skip_to=skip_to)
