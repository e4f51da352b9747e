from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="RunCounts")


@_attrs_define
class RunCounts:
    """
    Attributes:
        failed (int | Unset):  Default: 0.
        to_add (int | Unset):  Default: 0.
        to_delete (int | Unset):  Default: 0.
        to_update (int | Unset):  Default: 0.
        unchanged (int | Unset):  Default: 0.
    """

    failed: int | Unset = 0
    to_add: int | Unset = 0
    to_delete: int | Unset = 0
    to_update: int | Unset = 0
    unchanged: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        failed = self.failed

        to_add = self.to_add

        to_delete = self.to_delete

        to_update = self.to_update

        unchanged = self.unchanged

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if failed is not UNSET:
            field_dict["failed"] = failed
        if to_add is not UNSET:
            field_dict["to_add"] = to_add
        if to_delete is not UNSET:
            field_dict["to_delete"] = to_delete
        if to_update is not UNSET:
            field_dict["to_update"] = to_update
        if unchanged is not UNSET:
            field_dict["unchanged"] = unchanged

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        failed = d.pop("failed", UNSET)

        to_add = d.pop("to_add", UNSET)

        to_delete = d.pop("to_delete", UNSET)

        to_update = d.pop("to_update", UNSET)

        unchanged = d.pop("unchanged", UNSET)

        run_counts = cls(
            failed=failed,
            to_add=to_add,
            to_delete=to_delete,
            to_update=to_update,
            unchanged=unchanged,
        )

        run_counts.additional_properties = d
        return run_counts

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
