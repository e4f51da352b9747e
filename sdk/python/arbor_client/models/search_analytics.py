from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.day_count import DayCount
    from ..models.latency_percentiles import LatencyPercentiles
    from ..models.query_count import QueryCount


T = TypeVar("T", bound="SearchAnalytics")


@_attrs_define
class SearchAnalytics:
    """Searches of one knowledge base between `from` and `to` (analytics rows kept so far).

    Attributes:
        from_ (datetime.datetime):
        knowledge_base_id (str):
        latency_ms (LatencyPercentiles):
        low_score (float): The threshold used for `low_score_queries`.
        low_score_queries (list[QueryCount]): Query texts whose best hit scored below `low_score` on average (hits
            found, but weak: content the knowledge base may lack).
        queries (int): Searches in the window.
        queries_per_day (list[DayCount]):
        query_text_stored (bool): False while ARBOR_ANALYTICS_TEXT is off: the lists of texts are empty.
        to (datetime.datetime):
        top_queries (list[QueryCount]): The most frequent query texts.
        zero_hit (int): Searches that returned no hit.
        zero_hit_queries (list[QueryCount]): The most frequent query texts that found nothing.
    """

    from_: datetime.datetime
    knowledge_base_id: str
    latency_ms: LatencyPercentiles
    low_score: float
    low_score_queries: list[QueryCount]
    queries: int
    queries_per_day: list[DayCount]
    query_text_stored: bool
    to: datetime.datetime
    top_queries: list[QueryCount]
    zero_hit: int
    zero_hit_queries: list[QueryCount]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_.isoformat()

        knowledge_base_id = self.knowledge_base_id

        latency_ms = self.latency_ms.to_dict()

        low_score = self.low_score

        low_score_queries = []
        for low_score_queries_item_data in self.low_score_queries:
            low_score_queries_item = low_score_queries_item_data.to_dict()
            low_score_queries.append(low_score_queries_item)

        queries = self.queries

        queries_per_day = []
        for queries_per_day_item_data in self.queries_per_day:
            queries_per_day_item = queries_per_day_item_data.to_dict()
            queries_per_day.append(queries_per_day_item)

        query_text_stored = self.query_text_stored

        to = self.to.isoformat()

        top_queries = []
        for top_queries_item_data in self.top_queries:
            top_queries_item = top_queries_item_data.to_dict()
            top_queries.append(top_queries_item)

        zero_hit = self.zero_hit

        zero_hit_queries = []
        for zero_hit_queries_item_data in self.zero_hit_queries:
            zero_hit_queries_item = zero_hit_queries_item_data.to_dict()
            zero_hit_queries.append(zero_hit_queries_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "from": from_,
                "knowledge_base_id": knowledge_base_id,
                "latency_ms": latency_ms,
                "low_score": low_score,
                "low_score_queries": low_score_queries,
                "queries": queries,
                "queries_per_day": queries_per_day,
                "query_text_stored": query_text_stored,
                "to": to,
                "top_queries": top_queries,
                "zero_hit": zero_hit,
                "zero_hit_queries": zero_hit_queries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.day_count import DayCount  # noqa: PLC0415
        from ..models.latency_percentiles import LatencyPercentiles  # noqa: PLC0415
        from ..models.query_count import QueryCount  # noqa: PLC0415

        d = dict(src_dict)
        from_ = datetime.datetime.fromisoformat(d.pop("from"))

        knowledge_base_id = d.pop("knowledge_base_id")

        latency_ms = LatencyPercentiles.from_dict(d.pop("latency_ms"))

        low_score = d.pop("low_score")

        low_score_queries = []
        _low_score_queries = d.pop("low_score_queries")
        for low_score_queries_item_data in _low_score_queries:
            low_score_queries_item = QueryCount.from_dict(low_score_queries_item_data)

            low_score_queries.append(low_score_queries_item)

        queries = d.pop("queries")

        queries_per_day = []
        _queries_per_day = d.pop("queries_per_day")
        for queries_per_day_item_data in _queries_per_day:
            queries_per_day_item = DayCount.from_dict(queries_per_day_item_data)

            queries_per_day.append(queries_per_day_item)

        query_text_stored = d.pop("query_text_stored")

        to = datetime.datetime.fromisoformat(d.pop("to"))

        top_queries = []
        _top_queries = d.pop("top_queries")
        for top_queries_item_data in _top_queries:
            top_queries_item = QueryCount.from_dict(top_queries_item_data)

            top_queries.append(top_queries_item)

        zero_hit = d.pop("zero_hit")

        zero_hit_queries = []
        _zero_hit_queries = d.pop("zero_hit_queries")
        for zero_hit_queries_item_data in _zero_hit_queries:
            zero_hit_queries_item = QueryCount.from_dict(zero_hit_queries_item_data)

            zero_hit_queries.append(zero_hit_queries_item)

        search_analytics = cls(
            from_=from_,
            knowledge_base_id=knowledge_base_id,
            latency_ms=latency_ms,
            low_score=low_score,
            low_score_queries=low_score_queries,
            queries=queries,
            queries_per_day=queries_per_day,
            query_text_stored=query_text_stored,
            to=to,
            top_queries=top_queries,
            zero_hit=zero_hit,
            zero_hit_queries=zero_hit_queries,
        )

        search_analytics.additional_properties = d
        return search_analytics

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
