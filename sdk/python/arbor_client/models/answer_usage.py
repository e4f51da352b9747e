from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AnswerUsage")


@_attrs_define
class AnswerUsage:
    """
    Attributes:
        completion_tokens (int | Unset):  Default: 0.
        context_tokens (int | Unset): Estimated tokens of the sources. Default: 0.
        llm_calls (int | Unset):  Default: 0.
        prompt_tokens (int | Unset):  Default: 0.
    """

    completion_tokens: int | Unset = 0
    context_tokens: int | Unset = 0
    llm_calls: int | Unset = 0
    prompt_tokens: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        completion_tokens = self.completion_tokens

        context_tokens = self.context_tokens

        llm_calls = self.llm_calls

        prompt_tokens = self.prompt_tokens

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if completion_tokens is not UNSET:
            field_dict["completion_tokens"] = completion_tokens
        if context_tokens is not UNSET:
            field_dict["context_tokens"] = context_tokens
        if llm_calls is not UNSET:
            field_dict["llm_calls"] = llm_calls
        if prompt_tokens is not UNSET:
            field_dict["prompt_tokens"] = prompt_tokens

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        completion_tokens = d.pop("completion_tokens", UNSET)

        context_tokens = d.pop("context_tokens", UNSET)

        llm_calls = d.pop("llm_calls", UNSET)

        prompt_tokens = d.pop("prompt_tokens", UNSET)

        answer_usage = cls(
            completion_tokens=completion_tokens,
            context_tokens=context_tokens,
            llm_calls=llm_calls,
            prompt_tokens=prompt_tokens,
        )

        answer_usage.additional_properties = d
        return answer_usage

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
