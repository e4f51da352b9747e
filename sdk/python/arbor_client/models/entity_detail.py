from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.mention import Mention
    from ..models.relation_read import RelationRead


T = TypeVar("T", bound="EntityDetail")


@_attrs_define
class EntityDetail:
    """
    Attributes:
        id (UUID):
        key (str): The normalised name entities are merged by.
        mentions (list[Mention]): Provenance: up to 100 readable mentions.
        name (str):
        relations (list[RelationRead]): Up to 100 readable relations.
        summary (None | str): What the first document you may read says of it (the sentence, or the LLM's description).
        type_ (str): `PERSON`, `ORG`, `GPE` ... from the extractor; `CONCEPT` for noun phrases.
    """

    id: UUID
    key: str
    mentions: list[Mention]
    name: str
    relations: list[RelationRead]
    summary: None | str
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        key = self.key

        mentions = []
        for mentions_item_data in self.mentions:
            mentions_item = mentions_item_data.to_dict()
            mentions.append(mentions_item)

        name = self.name

        relations = []
        for relations_item_data in self.relations:
            relations_item = relations_item_data.to_dict()
            relations.append(relations_item)

        summary: None | str
        summary = self.summary

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "key": key,
                "mentions": mentions,
                "name": name,
                "relations": relations,
                "summary": summary,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.mention import Mention  # noqa: PLC0415
        from ..models.relation_read import RelationRead  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        key = d.pop("key")

        mentions = []
        _mentions = d.pop("mentions")
        for mentions_item_data in _mentions:
            mentions_item = Mention.from_dict(mentions_item_data)

            mentions.append(mentions_item)

        name = d.pop("name")

        relations = []
        _relations = d.pop("relations")
        for relations_item_data in _relations:
            relations_item = RelationRead.from_dict(relations_item_data)

            relations.append(relations_item)

        def _parse_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        summary = _parse_summary(d.pop("summary"))

        type_ = d.pop("type")

        entity_detail = cls(
            id=id,
            key=key,
            mentions=mentions,
            name=name,
            relations=relations,
            summary=summary,
            type_=type_,
        )

        entity_detail.additional_properties = d
        return entity_detail

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
