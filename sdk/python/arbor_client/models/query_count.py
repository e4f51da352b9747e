from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="QueryCount")


@_attrs_define
class QueryCount:
    """
    Attributes:
        count (int): Searches with this text (trimmed, case-folded).
        query (str):
        top_score (float | None | Unset): The mean score of their best hit (null: no hit).
    """

    count: int
    query: str
    top_score: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        query = self.query

        top_score: float | None | Unset
        if isinstance(self.top_score, Unset):
            top_score = UNSET
        else:
            top_score = self.top_score

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "query": query,
            }
        )
        if top_score is not UNSET:
            field_dict["top_score"] = top_score

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        query = d.pop("query")

        def _parse_top_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        top_score = _parse_top_score(d.pop("top_score", UNSET))

        query_count = cls(
            count=count,
            query=query,
            top_score=top_score,
        )

        query_count.additional_properties = d
        return query_count

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
