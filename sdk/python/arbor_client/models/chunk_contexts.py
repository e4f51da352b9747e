from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.chunk_context import ChunkContext


T = TypeVar("T", bound="ChunkContexts")


@_attrs_define
class ChunkContexts:
    """
    Attributes:
        items (list[ChunkContext]): In the order asked, each chunk once.
        missing (list[UUID]): Ids of no chunk of this knowledge base that the caller may read.
    """

    items: list[ChunkContext]
    missing: list[UUID]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        missing = []
        for missing_item_data in self.missing:
            missing_item = str(missing_item_data)
            missing.append(missing_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "missing": missing,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.chunk_context import ChunkContext  # noqa: PLC0415

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = ChunkContext.from_dict(items_item_data)

            items.append(items_item)

        missing = []
        _missing = d.pop("missing")
        for missing_item_data in _missing:
            missing_item = UUID(missing_item_data)

            missing.append(missing_item)

        chunk_contexts = cls(
            items=items,
            missing=missing,
        )

        chunk_contexts.additional_properties = d
        return chunk_contexts

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
