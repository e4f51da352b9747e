from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Schedule")


@_attrs_define
class Schedule:
    """
    Attributes:
        every (str): How often to sync: `30m`, `1h`, `1d` (from 1 minute up to 999 days).
    """

    every: str

    def to_dict(self) -> dict[str, Any]:
        every = self.every

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "every": every,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        every = d.pop("every")

        schedule = cls(
            every=every,
        )

        return schedule
