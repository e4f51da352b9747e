from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.chunk_bulk_result import ChunkBulkResult
    from ..models.document_read import DocumentRead


T = TypeVar("T", bound="DocumentImported")


@_attrs_define
class DocumentImported:
    """
    Attributes:
        document (DocumentRead):
        chunks (ChunkBulkResult | None | Unset):
    """

    document: DocumentRead
    chunks: ChunkBulkResult | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.chunk_bulk_result import ChunkBulkResult  # noqa: PLC0415

        document = self.document.to_dict()

        chunks: dict[str, Any] | None | Unset
        if isinstance(self.chunks, Unset):
            chunks = UNSET
        elif isinstance(self.chunks, ChunkBulkResult):
            chunks = self.chunks.to_dict()
        else:
            chunks = self.chunks

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "document": document,
            }
        )
        if chunks is not UNSET:
            field_dict["chunks"] = chunks

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.chunk_bulk_result import ChunkBulkResult  # noqa: PLC0415
        from ..models.document_read import DocumentRead  # noqa: PLC0415

        d = dict(src_dict)
        document = DocumentRead.from_dict(d.pop("document"))

        def _parse_chunks(data: object) -> ChunkBulkResult | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                chunks_type_0 = ChunkBulkResult.from_dict(data)

                return chunks_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ChunkBulkResult | None | Unset, data)

        chunks = _parse_chunks(d.pop("chunks", UNSET))

        document_imported = cls(
            document=document,
            chunks=chunks,
        )

        document_imported.additional_properties = d
        return document_imported

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
