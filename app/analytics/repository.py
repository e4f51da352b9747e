"""SQL of search analytics: write rows, aggregate a window, prune old rows."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, insert, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import SearchQuery
from app.models.base import table_of

WINDOW = "knowledge_base_id = :kb AND created_at >= :start AND created_at < :end"

TOTALS_SQL = text(
    "SELECT count(*), count(*) FILTER (WHERE hits = 0), "
    "percentile_cont(ARRAY[0.5, 0.9, 0.95, 0.99]) WITHIN GROUP (ORDER BY latency_ms) "
    f"FROM search_queries WHERE {WINDOW}"
)
PER_DAY_SQL = text(
    "SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*), "
    "count(*) FILTER (WHERE hits = 0) "
    f"FROM search_queries WHERE {WINDOW} GROUP BY day ORDER BY day"
)
# Texts grouped trimmed and case-folded: "Leave policy" and "leave policy " are one question.
_TEXTS = (
    "SELECT min(query) AS query, count(*) AS n, avg(top_score) AS score "
    f"FROM search_queries WHERE {WINDOW} AND query IS NOT NULL "
)
TOP_SQL = text(_TEXTS + "GROUP BY lower(btrim(query)) ORDER BY n DESC, query LIMIT :limit")
ZERO_HIT_SQL = text(
    _TEXTS + "AND hits = 0 GROUP BY lower(btrim(query)) ORDER BY n DESC, query LIMIT :limit"
)
LOW_SCORE_SQL = text(
    _TEXTS + "AND hits > 0 GROUP BY lower(btrim(query)) HAVING avg(top_score) < :low "
    "ORDER BY n DESC, score, query LIMIT :limit"
)


# A Core INSERT of the table, built once: the ORM's unit of work, and even its bulk INSERT of the
# mapped class, would cost each search more CPU than the row.
_INSERT = insert(table_of(SearchQuery))


async def add(
    session: AsyncSession, rows: Sequence[dict[str, Any]], *, durable: bool = True
) -> None:
    """Insert analytics rows. Not `durable`: the commit does not wait for the WAL flush
    (synchronous_commit off for this transaction alone), the largest part of a one-row
    transaction on a busy disk, while the row holds a pooled connection; a database crash may
    lose the last fraction of a second of rows, never corrupt them."""
    if not durable:
        await session.execute(text("SET LOCAL synchronous_commit = off"))
    await session.execute(_INSERT, list(rows))


def _window(kb_id: uuid.UUID, start: datetime, end: datetime) -> dict[str, Any]:
    return {"kb": kb_id, "start": start, "end": end}


async def totals(
    session: AsyncSession, kb_id: uuid.UUID, start: datetime, end: datetime
) -> tuple[int, int, list[float | None]]:
    row = (await session.execute(TOTALS_SQL, _window(kb_id, start, end))).one()
    percentiles = list(row[2]) if row[2] is not None else [None] * 4
    return int(row[0]), int(row[1]), percentiles


async def per_day(
    session: AsyncSession, kb_id: uuid.UUID, start: datetime, end: datetime
) -> list[tuple[date, int, int]]:
    rows = await session.execute(PER_DAY_SQL, _window(kb_id, start, end))
    return [(day, int(n), int(zero)) for day, n, zero in rows]


async def texts(
    session: AsyncSession,
    kb_id: uuid.UUID,
    start: datetime,
    end: datetime,
    *,
    which: str,
    limit: int,
    low: float = 0.0,
) -> list[tuple[str, int, float | None]]:
    statement = {"top": TOP_SQL, "zero": ZERO_HIT_SQL, "low": LOW_SCORE_SQL}[which]
    params = {**_window(kb_id, start, end), "limit": limit, "low": low}
    rows = await session.execute(statement, params)
    return [(query, int(n), None if score is None else float(score)) for query, n, score in rows]


async def prune(session: AsyncSession, *, older_than: timedelta) -> int:
    result = await session.execute(
        delete(SearchQuery).where(SearchQuery.created_at < func.now() - older_than)
    )
    return int(result.rowcount)  # type: ignore[attr-defined]
