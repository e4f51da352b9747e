from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DayCount")


@_attrs_define
class DayCount:
    """
    Attributes:
        day (datetime.date):
        queries (int):
        zero_hit (int): Searches of that day that returned no hit.
    """

    day: datetime.date
    queries: int
    zero_hit: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        day = self.day.isoformat()

        queries = self.queries

        zero_hit = self.zero_hit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "day": day,
                "queries": queries,
                "zero_hit": zero_hit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        day = datetime.date.fromisoformat(d.pop("day"))

        queries = d.pop("queries")

        zero_hit = d.pop("zero_hit")

        day_count = cls(
            day=day,
            queries=queries,
            zero_hit=zero_hit,
        )

        day_count.additional_properties = d
        return day_count

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
