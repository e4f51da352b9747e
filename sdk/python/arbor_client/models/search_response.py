from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fusion import Fusion
from ..models.search_mode import SearchMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.candidate_counts import CandidateCounts
    from ..models.search_hit import SearchHit
    from ..models.search_response_text_queries import SearchResponseTextQueries


T = TypeVar("T", bound="SearchResponse")


@_attrs_define
class SearchResponse:
    """
    Attributes:
        candidates (CandidateCounts):
        hits (list[SearchHit]):
        knowledge_bases (list[UUID]):
        mode (SearchMode):
        offset (int):
        query (None | str):
        requested_mode (SearchMode):
        top_k (int):
        degraded (None | str | Unset): Why the mode that ran differs from the one asked for (`no embedder`, `embedder
            unavailable`, `no query text`).
        fusion (Fusion | None | Unset):
        reranked (bool | Unset):  Default: False.
        text_queries (SearchResponseTextQueries | Unset): Per knowledge base searched, the tsquery its text search ran:
            each stems the query in its own language (null: no text side ran there).
        text_query (None | str | Unset): The tsquery that text search ran (in the first knowledge base that ran one: see
            `text_queries`).
        vector_weight (float | None | Unset):
        warnings (list[str] | Unset): Why a search may have found nothing: a filtered search without hits names the
            metadata keys of its filter that no document (or chunk) you can read has.
    """

    candidates: CandidateCounts
    hits: list[SearchHit]
    knowledge_bases: list[UUID]
    mode: SearchMode
    offset: int
    query: None | str
    requested_mode: SearchMode
    top_k: int
    degraded: None | str | Unset = UNSET
    fusion: Fusion | None | Unset = UNSET
    reranked: bool | Unset = False
    text_queries: SearchResponseTextQueries | Unset = UNSET
    text_query: None | str | Unset = UNSET
    vector_weight: float | None | Unset = UNSET
    warnings: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        candidates = self.candidates.to_dict()

        hits = []
        for hits_item_data in self.hits:
            hits_item = hits_item_data.to_dict()
            hits.append(hits_item)

        knowledge_bases = []
        for knowledge_bases_item_data in self.knowledge_bases:
            knowledge_bases_item = str(knowledge_bases_item_data)
            knowledge_bases.append(knowledge_bases_item)

        mode = self.mode.value

        offset = self.offset

        query: None | str
        query = self.query

        requested_mode = self.requested_mode.value

        top_k = self.top_k

        degraded: None | str | Unset
        if isinstance(self.degraded, Unset):
            degraded = UNSET
        else:
            degraded = self.degraded

        fusion: None | str | Unset
        if isinstance(self.fusion, Unset):
            fusion = UNSET
        elif isinstance(self.fusion, Fusion):
            fusion = self.fusion.value
        else:
            fusion = self.fusion

        reranked = self.reranked

        text_queries: dict[str, Any] | Unset = UNSET
        if not isinstance(self.text_queries, Unset):
            text_queries = self.text_queries.to_dict()

        text_query: None | str | Unset
        if isinstance(self.text_query, Unset):
            text_query = UNSET
        else:
            text_query = self.text_query

        vector_weight: float | None | Unset
        if isinstance(self.vector_weight, Unset):
            vector_weight = UNSET
        else:
            vector_weight = self.vector_weight

        warnings: list[str] | Unset = UNSET
        if not isinstance(self.warnings, Unset):
            warnings = self.warnings

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "candidates": candidates,
                "hits": hits,
                "knowledge_bases": knowledge_bases,
                "mode": mode,
                "offset": offset,
                "query": query,
                "requested_mode": requested_mode,
                "top_k": top_k,
            }
        )
        if degraded is not UNSET:
            field_dict["degraded"] = degraded
        if fusion is not UNSET:
            field_dict["fusion"] = fusion
        if reranked is not UNSET:
            field_dict["reranked"] = reranked
        if text_queries is not UNSET:
            field_dict["text_queries"] = text_queries
        if text_query is not UNSET:
            field_dict["text_query"] = text_query
        if vector_weight is not UNSET:
            field_dict["vector_weight"] = vector_weight
        if warnings is not UNSET:
            field_dict["warnings"] = warnings

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.candidate_counts import CandidateCounts  # noqa: PLC0415
        from ..models.search_hit import SearchHit  # noqa: PLC0415
        from ..models.search_response_text_queries import SearchResponseTextQueries  # noqa: PLC0415

        d = dict(src_dict)
        candidates = CandidateCounts.from_dict(d.pop("candidates"))

        hits = []
        _hits = d.pop("hits")
        for hits_item_data in _hits:
            hits_item = SearchHit.from_dict(hits_item_data)

            hits.append(hits_item)

        knowledge_bases = []
        _knowledge_bases = d.pop("knowledge_bases")
        for knowledge_bases_item_data in _knowledge_bases:
            knowledge_bases_item = UUID(knowledge_bases_item_data)

            knowledge_bases.append(knowledge_bases_item)

        mode = SearchMode(d.pop("mode"))

        offset = d.pop("offset")

        def _parse_query(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        query = _parse_query(d.pop("query"))

        requested_mode = SearchMode(d.pop("requested_mode"))

        top_k = d.pop("top_k")

        def _parse_degraded(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        degraded = _parse_degraded(d.pop("degraded", UNSET))

        def _parse_fusion(data: object) -> Fusion | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                fusion_type_0 = Fusion(data)

                return fusion_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Fusion | None | Unset, data)

        fusion = _parse_fusion(d.pop("fusion", UNSET))

        reranked = d.pop("reranked", UNSET)

        _text_queries = d.pop("text_queries", UNSET)
        text_queries: SearchResponseTextQueries | Unset
        if isinstance(_text_queries, Unset):
            text_queries = UNSET
        else:
            text_queries = SearchResponseTextQueries.from_dict(_text_queries)

        def _parse_text_query(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        text_query = _parse_text_query(d.pop("text_query", UNSET))

        def _parse_vector_weight(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        vector_weight = _parse_vector_weight(d.pop("vector_weight", UNSET))

        warnings = cast(list[str], d.pop("warnings", UNSET))

        search_response = cls(
            candidates=candidates,
            hits=hits,
            knowledge_bases=knowledge_bases,
            mode=mode,
            offset=offset,
            query=query,
            requested_mode=requested_mode,
            top_k=top_k,
            degraded=degraded,
            fusion=fusion,
            reranked=reranked,
            text_queries=text_queries,
            text_query=text_query,
            vector_weight=vector_weight,
            warnings=warnings,
        )

        search_response.additional_properties = d
        return search_response

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
