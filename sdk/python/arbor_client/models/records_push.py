from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.record_write import RecordWrite


T = TypeVar("T", bound="RecordsPush")


@_attrs_define
class RecordsPush:
    """
    Attributes:
        records (list[RecordWrite]):
    """

    records: list[RecordWrite]

    def to_dict(self) -> dict[str, Any]:
        records = []
        for records_item_data in self.records:
            records_item = records_item_data.to_dict()
            records.append(records_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "records": records,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.record_write import RecordWrite  # noqa: PLC0415

        d = dict(src_dict)
        records = []
        _records = d.pop("records")
        for records_item_data in _records:
            records_item = RecordWrite.from_dict(records_item_data)

            records.append(records_item)

        records_push = cls(
            records=records,
        )

        return records_push
