from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CandidateCounts")


@_attrs_define
class CandidateCounts:
    """
    Attributes:
        text (int): Candidates the full-text side produced.
        vector (int): Candidates the vector side produced.
        trigram (int | Unset): Trigram fallback candidates (short queries). Default: 0.
    """

    text: int
    vector: int
    trigram: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        vector = self.vector

        trigram = self.trigram

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "text": text,
                "vector": vector,
            }
        )
        if trigram is not UNSET:
            field_dict["trigram"] = trigram

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        text = d.pop("text")

        vector = d.pop("vector")

        trigram = d.pop("trigram", UNSET)

        candidate_counts = cls(
            text=text,
            vector=vector,
            trigram=trigram,
        )

        candidate_counts.additional_properties = d
        return candidate_counts

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
