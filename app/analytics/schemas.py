"""The public contract of search analytics."""

from __future__ import annotations

from datetime import date, datetime

from pydantic import BaseModel, Field


class DayCount(BaseModel):
    day: date
    queries: int
    zero_hit: int = Field(description="Searches of that day that returned no hit.")


class QueryCount(BaseModel):
    query: str
    count: int = Field(description="Searches with this text (trimmed, case-folded).")
    top_score: float | None = Field(
        default=None, description="The mean score of their best hit (null: no hit)."
    )


class LatencyPercentiles(BaseModel):
    p50: float | None
    p90: float | None
    p95: float | None
    p99: float | None


class SearchAnalytics(BaseModel):
    """Searches of one knowledge base between `from` and `to` (analytics rows kept so far)."""

    knowledge_base_id: str
    from_: datetime = Field(alias="from", serialization_alias="from")
    to: datetime
    queries: int = Field(description="Searches in the window.")
    zero_hit: int = Field(description="Searches that returned no hit.")
    queries_per_day: list[DayCount]
    latency_ms: LatencyPercentiles = Field(description="Search handler time, milliseconds.")
    top_queries: list[QueryCount] = Field(description="The most frequent query texts.")
    zero_hit_queries: list[QueryCount] = Field(
        description="The most frequent query texts that found nothing."
    )
    low_score_queries: list[QueryCount] = Field(
        description="Query texts whose best hit scored below `low_score` on average (hits "
        "found, but weak: content the knowledge base may lack)."
    )
    low_score: float = Field(description="The threshold used for `low_score_queries`.")
    query_text_stored: bool = Field(
        description="False while ARBOR_ANALYTICS_TEXT is off: the lists of texts are empty."
    )

    model_config = {"populate_by_name": True}
