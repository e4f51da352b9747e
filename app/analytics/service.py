"""Rules of search analytics: what a search leaves behind, and what a window of them says.

The search route notes its outcome on the request (`note_search`); the audit middleware
writes the rows once the response is sent, in the transaction of the request's audit event,
so analytics add no statement to the search's transaction and no time before its answer. A
failed write is logged and counted (`arbor_search_analytics_dropped`), never answered to the client.
"""

from __future__ import annotations

import logging
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.analytics import repository
from app.analytics.schemas import DayCount, LatencyPercentiles, QueryCount, SearchAnalytics
from app.db.engine import Database
from app.db.outage import is_outage
from app.kit.errors import ValidationFailed
from app.models import KnowledgeBase
from app.observability import metrics
from app.search.schemas import SearchResponse

logger = logging.getLogger(__name__)

STATE_KEY = "search_analytics"
DEFAULT_WINDOW = timedelta(days=7)
MAX_WINDOW = timedelta(days=366)
MAX_QUERY_CHARS = 1000


def note_search(
    request: Request, *, project_id: uuid.UUID, found: SearchResponse, started: float
) -> None:
    """Record a search's metrics now and leave its analytics rows for the middleware."""
    seconds = time.perf_counter() - started
    metrics.record_search(
        mode=found.mode.value,
        seconds=seconds,
        vector=found.candidates.vector,
        text=found.candidates.text,
        trigram=found.candidates.trigram,
        hits=len(found.hits),
    )
    keep_text = request.app.state.settings.analytics_text
    query = found.query.strip()[:MAX_QUERY_CHARS] if keep_text and found.query else None
    top_score = found.hits[0].score if found.hits else None
    request.state.search_analytics = (
        project_id,
        [
            {
                "id": uuid.uuid4(),
                "project_id": project_id,
                "knowledge_base_id": kb_id,
                "query": query or None,
                "mode": found.mode.value,
                "hits": len(found.hits),
                "top_score": top_score,
                "latency_ms": seconds * 1000,
            }
            for kb_id in found.knowledge_bases
        ],
    )


def take_noted(state: dict[str, Any]) -> tuple[uuid.UUID, list[dict[str, Any]]] | None:
    """The (project id, rows) a search route noted on its request, taken off the request."""
    noted: tuple[uuid.UUID, list[dict[str, Any]]] | None = state.pop(STATE_KEY, None)
    return noted


async def add(session: AsyncSession, rows: list[dict[str, Any]], *, durable: bool) -> None:
    """Write noted rows in the caller's transaction (app/audit/middleware.py writes them with
    the request's audit event, after the response went out)."""
    await repository.add(session, rows, durable=durable)


def dropped(rows: list[dict[str, Any]], exc: Exception) -> None:
    """Count and log rows whose write failed; never answered to the client."""
    metrics.ANALYTICS_DROPPED.inc(len(rows))
    if is_outage(exc):
        logger.warning("search analytics not written: the database is unavailable")
    else:
        logger.error("search analytics not written", exc_info=exc)


async def describe(
    session: AsyncSession,
    kb: KnowledgeBase,
    *,
    start: datetime | None,
    end: datetime | None,
    limit: int,
    low_score: float,
    text_stored: bool,
) -> SearchAnalytics:
    end = _aware(end) if end is not None else datetime.now(UTC)
    start = _aware(start) if start is not None else end - DEFAULT_WINDOW
    if start >= end:
        raise ValidationFailed("`from` must be before `to`.")
    if end - start > MAX_WINDOW:
        raise ValidationFailed("The window may span at most 366 days.")
    total, zero, percentiles = await repository.totals(session, kb.id, start, end)
    days = await repository.per_day(session, kb.id, start, end)

    async def texts(which: str) -> list[QueryCount]:
        found = await repository.texts(
            session, kb.id, start, end, which=which, limit=limit, low=low_score
        )
        return [QueryCount(query=q, count=n, top_score=score) for q, n, score in found]

    p50, p90, p95, p99 = percentiles
    return SearchAnalytics(
        knowledge_base_id=str(kb.id),
        from_=start,
        to=end,
        queries=total,
        zero_hit=zero,
        queries_per_day=[DayCount(day=d, queries=n, zero_hit=z) for d, n, z in days],
        latency_ms=LatencyPercentiles(p50=p50, p90=p90, p95=p95, p99=p99),
        top_queries=await texts("top"),
        zero_hit_queries=await texts("zero"),
        low_score_queries=await texts("low"),
        low_score=low_score,
        query_text_stored=text_stored,
    )


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


async def prune(database: Database, *, retention_days: int) -> None:
    """Drop analytics rows older than the retention (0 keeps them)."""
    if retention_days <= 0:
        return
    async with database.transaction() as session:
        removed = await repository.prune(session, older_than=timedelta(days=retention_days))
    if removed:
        logger.info("pruned %d search analytics rows", removed)
