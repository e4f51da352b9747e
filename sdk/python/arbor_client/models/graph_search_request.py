from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.graph_search_request_mode import GraphSearchRequestMode
from ..types import UNSET, Unset

T = TypeVar("T", bound="GraphSearchRequest")


@_attrs_define
class GraphSearchRequest:
    """
    Attributes:
        query (str):
        max_growth_levels (int | Unset): Quick mode only. Default: 3.
        mode (GraphSearchRequestMode | Unset): `standard`: query entities, pattern and trigram matches, vector fallback.
            `quick`: vector search, then growth along relations. Default: GraphSearchRequestMode.STANDARD.
        search_limit (int | Unset): Quick mode only. Default: 50.
    """

    query: str
    max_growth_levels: int | Unset = 3
    mode: GraphSearchRequestMode | Unset = GraphSearchRequestMode.STANDARD
    search_limit: int | Unset = 50

    def to_dict(self) -> dict[str, Any]:
        query = self.query

        max_growth_levels = self.max_growth_levels

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        search_limit = self.search_limit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "query": query,
            }
        )
        if max_growth_levels is not UNSET:
            field_dict["max_growth_levels"] = max_growth_levels
        if mode is not UNSET:
            field_dict["mode"] = mode
        if search_limit is not UNSET:
            field_dict["search_limit"] = search_limit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        query = d.pop("query")

        max_growth_levels = d.pop("max_growth_levels", UNSET)

        _mode = d.pop("mode", UNSET)
        mode: GraphSearchRequestMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = GraphSearchRequestMode(_mode)

        search_limit = d.pop("search_limit", UNSET)

        graph_search_request = cls(
            query=query,
            max_growth_levels=max_growth_levels,
            mode=mode,
            search_limit=search_limit,
        )

        return graph_search_request
