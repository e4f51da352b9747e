from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.tool_call_result_result import ToolCallResultResult


T = TypeVar("T", bound="ToolCallResult")


@_attrs_define
class ToolCallResult:
    """What a tool returned: `result` as data, `text` ready for a model's tool message.

    Attributes:
        result (ToolCallResultResult): The REST answer the tool is built on (search: its body, plus `citations`).
        text (str): The result as text for a language model, citations as [n].
        tool (str):
    """

    result: ToolCallResultResult
    text: str
    tool: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        result = self.result.to_dict()

        text = self.text

        tool = self.tool

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "result": result,
                "text": text,
                "tool": tool,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tool_call_result_result import ToolCallResultResult  # noqa: PLC0415

        d = dict(src_dict)
        result = ToolCallResultResult.from_dict(d.pop("result"))

        text = d.pop("text")

        tool = d.pop("tool")

        tool_call_result = cls(
            result=result,
            text=text,
            tool=tool,
        )

        tool_call_result.additional_properties = d
        return tool_call_result

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
