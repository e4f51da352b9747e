from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.progress_stage import ProgressStage
from ..types import UNSET, Unset

T = TypeVar("T", bound="Progress")


@_attrs_define
class Progress:
    """
    Attributes:
        stage (ProgressStage):
        attempts (int | Unset):  Default: 0.
        chunks_embedded (int | Unset):  Default: 0.
        chunks_total (int | Unset):  Default: 0.
        retrying (bool | Unset):  Default: False.
    """

    stage: ProgressStage
    attempts: int | Unset = 0
    chunks_embedded: int | Unset = 0
    chunks_total: int | Unset = 0
    retrying: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        stage = self.stage.value

        attempts = self.attempts

        chunks_embedded = self.chunks_embedded

        chunks_total = self.chunks_total

        retrying = self.retrying

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "stage": stage,
            }
        )
        if attempts is not UNSET:
            field_dict["attempts"] = attempts
        if chunks_embedded is not UNSET:
            field_dict["chunks_embedded"] = chunks_embedded
        if chunks_total is not UNSET:
            field_dict["chunks_total"] = chunks_total
        if retrying is not UNSET:
            field_dict["retrying"] = retrying

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        stage = ProgressStage(d.pop("stage"))

        attempts = d.pop("attempts", UNSET)

        chunks_embedded = d.pop("chunks_embedded", UNSET)

        chunks_total = d.pop("chunks_total", UNSET)

        retrying = d.pop("retrying", UNSET)

        progress = cls(
            stage=stage,
            attempts=attempts,
            chunks_embedded=chunks_embedded,
            chunks_total=chunks_total,
            retrying=retrying,
        )

        progress.additional_properties = d
        return progress

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
