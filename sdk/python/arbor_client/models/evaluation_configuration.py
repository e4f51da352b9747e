from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.fusion import Fusion
from ..models.include import Include
from ..models.search_mode import SearchMode
from ..models.text_match import TextMatch
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.evaluation_configuration_filter_type_0 import EvaluationConfigurationFilterType0
    from ..models.mmr_options import MmrOptions


T = TypeVar("T", bound="EvaluationConfiguration")


@_attrs_define
class EvaluationConfiguration:
    """A named set of search options; each query of the set is searched with them.

    `query` and `vector` come from the query set (not allowed here); `top_k` and `offset` are
    set by the evaluation (100, 0).

        Attributes:
            name (str):
            candidates (int | None | Unset): Candidates taken from each side before fusion; default max(100, top_k).
            ef_search (int | None | Unset): HNSW search breadth; default max(40, candidates), at most 1000.
            filter_ (EvaluationConfigurationFilterType0 | None | Unset): Mongo-like filter, e.g. {"metadata.year": {"$gte":
                2020}}; see docs/search.md.
            fusion (Fusion | Unset):
            include (list[Include] | Unset): Extras per hit: context, explain, vectors.
            mmr (MmrOptions | None | Unset): Diversify the best hits.
            mode (SearchMode | Unset):
            offset (int | Unset): Hits to skip (paging). Every page of one query ranks the same pool (each side's best
                `candidates`; with rerank or MMR the best max(rerank_depth, top_k) fused hits), so pages never repeat or skip a
                hit; a page shorter than top_k is the last. Raise `candidates` (or `rerank_depth`) to page deeper. Default: 0.
            query (None | str | Unset): Natural-language query; embedded for vector search, parsed for text search.
            rerank (bool | Unset): Re-score the best hits with the reranker. Default: False.
            rerank_depth (int | Unset): How many of the best hits rerank and MMR reconsider (at least top_k); pages with an
                offset come from this one pool. Default: 50.
            score_threshold (float | None | Unset): Drop hits whose returned `score` is below this (see docs/search.md for
                the meaning of the score in each mode).
            text_match (TextMatch | Unset):
            top_k (int | Unset): Hits to return. Default: 10.
            vector (list[float] | None | Unset): A query vector of the knowledge base's dimension (instead of embedding
                `query`; with `query` too, text search uses the text and vector search the vector).
            vector_weight (float | Unset): Weight of the vector side in fusion. Default: 0.5.
    """

    name: str
    candidates: int | None | Unset = UNSET
    ef_search: int | None | Unset = UNSET
    filter_: EvaluationConfigurationFilterType0 | None | Unset = UNSET
    fusion: Fusion | Unset = UNSET
    include: list[Include] | Unset = UNSET
    mmr: MmrOptions | None | Unset = UNSET
    mode: SearchMode | Unset = UNSET
    offset: int | Unset = 0
    query: None | str | Unset = UNSET
    rerank: bool | Unset = False
    rerank_depth: int | Unset = 50
    score_threshold: float | None | Unset = UNSET
    text_match: TextMatch | Unset = UNSET
    top_k: int | Unset = 10
    vector: list[float] | None | Unset = UNSET
    vector_weight: float | Unset = 0.5

    def to_dict(self) -> dict[str, Any]:
        from ..models.evaluation_configuration_filter_type_0 import EvaluationConfigurationFilterType0  # noqa: PLC0415
        from ..models.mmr_options import MmrOptions  # noqa: PLC0415

        name = self.name

        candidates: int | None | Unset
        if isinstance(self.candidates, Unset):
            candidates = UNSET
        else:
            candidates = self.candidates

        ef_search: int | None | Unset
        if isinstance(self.ef_search, Unset):
            ef_search = UNSET
        else:
            ef_search = self.ef_search

        filter_: dict[str, Any] | None | Unset
        if isinstance(self.filter_, Unset):
            filter_ = UNSET
        elif isinstance(self.filter_, EvaluationConfigurationFilterType0):
            filter_ = self.filter_.to_dict()
        else:
            filter_ = self.filter_

        fusion: str | Unset = UNSET
        if not isinstance(self.fusion, Unset):
            fusion = self.fusion.value

        include: list[str] | Unset = UNSET
        if not isinstance(self.include, Unset):
            include = []
            for include_item_data in self.include:
                include_item = include_item_data.value
                include.append(include_item)

        mmr: dict[str, Any] | None | Unset
        if isinstance(self.mmr, Unset):
            mmr = UNSET
        elif isinstance(self.mmr, MmrOptions):
            mmr = self.mmr.to_dict()
        else:
            mmr = self.mmr

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        offset = self.offset

        query: None | str | Unset
        if isinstance(self.query, Unset):
            query = UNSET
        else:
            query = self.query

        rerank = self.rerank

        rerank_depth = self.rerank_depth

        score_threshold: float | None | Unset
        if isinstance(self.score_threshold, Unset):
            score_threshold = UNSET
        else:
            score_threshold = self.score_threshold

        text_match: str | Unset = UNSET
        if not isinstance(self.text_match, Unset):
            text_match = self.text_match.value

        top_k = self.top_k

        vector: list[float] | None | Unset
        if isinstance(self.vector, Unset):
            vector = UNSET
        elif isinstance(self.vector, list):
            vector = self.vector

        else:
            vector = self.vector

        vector_weight = self.vector_weight

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if candidates is not UNSET:
            field_dict["candidates"] = candidates
        if ef_search is not UNSET:
            field_dict["ef_search"] = ef_search
        if filter_ is not UNSET:
            field_dict["filter"] = filter_
        if fusion is not UNSET:
            field_dict["fusion"] = fusion
        if include is not UNSET:
            field_dict["include"] = include
        if mmr is not UNSET:
            field_dict["mmr"] = mmr
        if mode is not UNSET:
            field_dict["mode"] = mode
        if offset is not UNSET:
            field_dict["offset"] = offset
        if query is not UNSET:
            field_dict["query"] = query
        if rerank is not UNSET:
            field_dict["rerank"] = rerank
        if rerank_depth is not UNSET:
            field_dict["rerank_depth"] = rerank_depth
        if score_threshold is not UNSET:
            field_dict["score_threshold"] = score_threshold
        if text_match is not UNSET:
            field_dict["text_match"] = text_match
        if top_k is not UNSET:
            field_dict["top_k"] = top_k
        if vector is not UNSET:
            field_dict["vector"] = vector
        if vector_weight is not UNSET:
            field_dict["vector_weight"] = vector_weight

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.evaluation_configuration_filter_type_0 import EvaluationConfigurationFilterType0  # noqa: PLC0415
        from ..models.mmr_options import MmrOptions  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        def _parse_candidates(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        candidates = _parse_candidates(d.pop("candidates", UNSET))

        def _parse_ef_search(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ef_search = _parse_ef_search(d.pop("ef_search", UNSET))

        def _parse_filter_(data: object) -> EvaluationConfigurationFilterType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filter_type_0 = EvaluationConfigurationFilterType0.from_dict(data)

                return filter_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EvaluationConfigurationFilterType0 | None | Unset, data)

        filter_ = _parse_filter_(d.pop("filter", UNSET))

        _fusion = d.pop("fusion", UNSET)
        fusion: Fusion | Unset
        if isinstance(_fusion, Unset):
            fusion = UNSET
        else:
            fusion = Fusion(_fusion)

        _include = d.pop("include", UNSET)
        include: list[Include] | Unset = UNSET
        if _include is not UNSET:
            include = []
            for include_item_data in _include:
                include_item = Include(include_item_data)

                include.append(include_item)

        def _parse_mmr(data: object) -> MmrOptions | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                mmr_type_0 = MmrOptions.from_dict(data)

                return mmr_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MmrOptions | None | Unset, data)

        mmr = _parse_mmr(d.pop("mmr", UNSET))

        _mode = d.pop("mode", UNSET)
        mode: SearchMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = SearchMode(_mode)

        offset = d.pop("offset", UNSET)

        def _parse_query(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        query = _parse_query(d.pop("query", UNSET))

        rerank = d.pop("rerank", UNSET)

        rerank_depth = d.pop("rerank_depth", UNSET)

        def _parse_score_threshold(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        score_threshold = _parse_score_threshold(d.pop("score_threshold", UNSET))

        _text_match = d.pop("text_match", UNSET)
        text_match: TextMatch | Unset
        if isinstance(_text_match, Unset):
            text_match = UNSET
        else:
            text_match = TextMatch(_text_match)

        top_k = d.pop("top_k", UNSET)

        def _parse_vector(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                vector_type_0 = cast(list[float], data)

                return vector_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        vector = _parse_vector(d.pop("vector", UNSET))

        vector_weight = d.pop("vector_weight", UNSET)

        evaluation_configuration = cls(
            name=name,
            candidates=candidates,
            ef_search=ef_search,
            filter_=filter_,
            fusion=fusion,
            include=include,
            mmr=mmr,
            mode=mode,
            offset=offset,
            query=query,
            rerank=rerank,
            rerank_depth=rerank_depth,
            score_threshold=score_threshold,
            text_match=text_match,
            top_k=top_k,
            vector=vector,
            vector_weight=vector_weight,
        )

        return evaluation_configuration
