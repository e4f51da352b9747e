from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.hit_context import HitContext


T = TypeVar("T", bound="ChunkContext")


@_attrs_define
class ChunkContext:
    """
    Attributes:
        chunk_id (UUID):
        context (HitContext): Where a hit sits: its ancestors, the section around it, the chunks next to it.
    """

    chunk_id: UUID
    context: HitContext
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chunk_id = str(self.chunk_id)

        context = self.context.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunk_id": chunk_id,
                "context": context,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.hit_context import HitContext  # noqa: PLC0415

        d = dict(src_dict)
        chunk_id = UUID(d.pop("chunk_id"))

        context = HitContext.from_dict(d.pop("context"))

        chunk_context = cls(
            chunk_id=chunk_id,
            context=context,
        )

        chunk_context.additional_properties = d
        return chunk_context

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
