from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GraphEdge")


@_attrs_define
class GraphEdge:
    """
    Attributes:
        fact (str):
        id (UUID):
        score (float):
        source_id (UUID):
        target_id (UUID):
        type_ (str):
    """

    fact: str
    id: UUID
    score: float
    source_id: UUID
    target_id: UUID
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fact = self.fact

        id = str(self.id)

        score = self.score

        source_id = str(self.source_id)

        target_id = str(self.target_id)

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fact": fact,
                "id": id,
                "score": score,
                "source_id": source_id,
                "target_id": target_id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        fact = d.pop("fact")

        id = UUID(d.pop("id"))

        score = d.pop("score")

        source_id = UUID(d.pop("source_id"))

        target_id = UUID(d.pop("target_id"))

        type_ = d.pop("type")

        graph_edge = cls(
            fact=fact,
            id=id,
            score=score,
            source_id=source_id,
            target_id=target_id,
            type_=type_,
        )

        graph_edge.additional_properties = d
        return graph_edge

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
