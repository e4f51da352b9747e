from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Mention")


@_attrs_define
class Mention:
    """
    Attributes:
        chunk_id (UUID):
        description (str):
        document_id (UUID):
        surface (str): The name as the chunk writes it.
    """

    chunk_id: UUID
    description: str
    document_id: UUID
    surface: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chunk_id = str(self.chunk_id)

        description = self.description

        document_id = str(self.document_id)

        surface = self.surface

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunk_id": chunk_id,
                "description": description,
                "document_id": document_id,
                "surface": surface,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chunk_id = UUID(d.pop("chunk_id"))

        description = d.pop("description")

        document_id = UUID(d.pop("document_id"))

        surface = d.pop("surface")

        mention = cls(
            chunk_id=chunk_id,
            description=description,
            document_id=document_id,
            surface=surface,
        )

        mention.additional_properties = d
        return mention

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
