from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="NeighbourChunk")


@_attrs_define
class NeighbourChunk:
    """
    Attributes:
        chunk_id (UUID):
        chunk_index (int):
        text (str):
    """

    chunk_id: UUID
    chunk_index: int
    text: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chunk_id = str(self.chunk_id)

        chunk_index = self.chunk_index

        text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunk_id": chunk_id,
                "chunk_index": chunk_index,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chunk_id = UUID(d.pop("chunk_id"))

        chunk_index = d.pop("chunk_index")

        text = d.pop("text")

        neighbour_chunk = cls(
            chunk_id=chunk_id,
            chunk_index=chunk_index,
            text=text,
        )

        neighbour_chunk.additional_properties = d
        return neighbour_chunk

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
