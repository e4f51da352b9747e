from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="ChunkContextRequest")


@_attrs_define
class ChunkContextRequest:
    """
    Attributes:
        chunk_ids (list[UUID]):
    """

    chunk_ids: list[UUID]

    def to_dict(self) -> dict[str, Any]:
        chunk_ids = []
        for chunk_ids_item_data in self.chunk_ids:
            chunk_ids_item = str(chunk_ids_item_data)
            chunk_ids.append(chunk_ids_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "chunk_ids": chunk_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chunk_ids = []
        _chunk_ids = d.pop("chunk_ids")
        for chunk_ids_item_data in _chunk_ids:
            chunk_ids_item = UUID(chunk_ids_item_data)

            chunk_ids.append(chunk_ids_item)

        chunk_context_request = cls(
            chunk_ids=chunk_ids,
        )

        return chunk_context_request
