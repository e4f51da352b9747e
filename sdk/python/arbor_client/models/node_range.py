from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="NodeRange")


@_attrs_define
class NodeRange:
    """A half-open `[start_offset, end_offset)` range of code points in the extracted text.

    Attributes:
        end_offset (int):
        start_offset (int):
    """

    end_offset: int
    start_offset: int

    def to_dict(self) -> dict[str, Any]:
        end_offset = self.end_offset

        start_offset = self.start_offset

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "end_offset": end_offset,
                "start_offset": start_offset,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        end_offset = d.pop("end_offset")

        start_offset = d.pop("start_offset")

        node_range = cls(
            end_offset=end_offset,
            start_offset=start_offset,
        )

        return node_range
