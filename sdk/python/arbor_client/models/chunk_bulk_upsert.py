from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.chunk_bulk_item import ChunkBulkItem


T = TypeVar("T", bound="ChunkBulkUpsert")


@_attrs_define
class ChunkBulkUpsert:
    """
    Attributes:
        chunks (list[ChunkBulkItem]):
    """

    chunks: list[ChunkBulkItem]

    def to_dict(self) -> dict[str, Any]:
        chunks = []
        for chunks_item_data in self.chunks:
            chunks_item = chunks_item_data.to_dict()
            chunks.append(chunks_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "chunks": chunks,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.chunk_bulk_item import ChunkBulkItem  # noqa: PLC0415

        d = dict(src_dict)
        chunks = []
        _chunks = d.pop("chunks")
        for chunks_item_data in _chunks:
            chunks_item = ChunkBulkItem.from_dict(chunks_item_data)

            chunks.append(chunks_item)

        chunk_bulk_upsert = cls(
            chunks=chunks,
        )

        return chunk_bulk_upsert
