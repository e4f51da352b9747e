from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EntityRead")


@_attrs_define
class EntityRead:
    """
    Attributes:
        id (UUID):
        key (str): The normalised name entities are merged by.
        name (str):
        summary (None | str): What the first document you may read says of it (the sentence, or the LLM's description).
        type_ (str): `PERSON`, `ORG`, `GPE` ... from the extractor; `CONCEPT` for noun phrases.
    """

    id: UUID
    key: str
    name: str
    summary: None | str
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        key = self.key

        name = self.name

        summary: None | str
        summary = self.summary

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "key": key,
                "name": name,
                "summary": summary,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        key = d.pop("key")

        name = d.pop("name")

        def _parse_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        summary = _parse_summary(d.pop("summary"))

        type_ = d.pop("type")

        entity_read = cls(
            id=id,
            key=key,
            name=name,
            summary=summary,
            type_=type_,
        )

        entity_read.additional_properties = d
        return entity_read

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
