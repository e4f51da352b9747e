from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RelationRead")


@_attrs_define
class RelationRead:
    """
    Attributes:
        chunks (list[UUID]): Chunks you may read that state the fact.
        fact (str):
        id (UUID):
        source_id (UUID):
        source_name (str):
        target_id (UUID):
        target_name (str):
        type_ (str):
    """

    chunks: list[UUID]
    fact: str
    id: UUID
    source_id: UUID
    source_name: str
    target_id: UUID
    target_name: str
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chunks = []
        for chunks_item_data in self.chunks:
            chunks_item = str(chunks_item_data)
            chunks.append(chunks_item)

        fact = self.fact

        id = str(self.id)

        source_id = str(self.source_id)

        source_name = self.source_name

        target_id = str(self.target_id)

        target_name = self.target_name

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunks": chunks,
                "fact": fact,
                "id": id,
                "source_id": source_id,
                "source_name": source_name,
                "target_id": target_id,
                "target_name": target_name,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chunks = []
        _chunks = d.pop("chunks")
        for chunks_item_data in _chunks:
            chunks_item = UUID(chunks_item_data)

            chunks.append(chunks_item)

        fact = d.pop("fact")

        id = UUID(d.pop("id"))

        source_id = UUID(d.pop("source_id"))

        source_name = d.pop("source_name")

        target_id = UUID(d.pop("target_id"))

        target_name = d.pop("target_name")

        type_ = d.pop("type")

        relation_read = cls(
            chunks=chunks,
            fact=fact,
            id=id,
            source_id=source_id,
            source_name=source_name,
            target_id=target_id,
            target_name=target_name,
            type_=type_,
        )

        relation_read.additional_properties = d
        return relation_read

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
