from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.action_stage import ActionStage
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.action_data import ActionData


T = TypeVar("T", bound="Action")


@_attrs_define
class Action:
    """One step of the flow, as it happened.

    Attributes:
        elapsed_ms (float):
        message (str):
        stage (ActionStage):
        data (ActionData | Unset):
    """

    elapsed_ms: float
    message: str
    stage: ActionStage
    data: ActionData | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        elapsed_ms = self.elapsed_ms

        message = self.message

        stage = self.stage.value

        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "elapsed_ms": elapsed_ms,
                "message": message,
                "stage": stage,
            }
        )
        if data is not UNSET:
            field_dict["data"] = data

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_data import ActionData  # noqa: PLC0415

        d = dict(src_dict)
        elapsed_ms = d.pop("elapsed_ms")

        message = d.pop("message")

        stage = ActionStage(d.pop("stage"))

        _data = d.pop("data", UNSET)
        data: ActionData | Unset
        if isinstance(_data, Unset):
            data = UNSET
        else:
            data = ActionData.from_dict(_data)

        action = cls(
            elapsed_ms=elapsed_ms,
            message=message,
            stage=stage,
            data=data,
        )

        action.additional_properties = d
        return action

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
