from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.document_create import DocumentCreate


T = TypeVar("T", bound="DocumentBatchCreate")


@_attrs_define
class DocumentBatchCreate:
    """Many JSON uploads in one request: accepted together or not at all.

    Attributes:
        documents (list[DocumentCreate]):
    """

    documents: list[DocumentCreate]

    def to_dict(self) -> dict[str, Any]:
        documents = []
        for documents_item_data in self.documents:
            documents_item = documents_item_data.to_dict()
            documents.append(documents_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "documents": documents,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_create import DocumentCreate  # noqa: PLC0415

        d = dict(src_dict)
        documents = []
        _documents = d.pop("documents")
        for documents_item_data in _documents:
            documents_item = DocumentCreate.from_dict(documents_item_data)

            documents.append(documents_item)

        document_batch_create = cls(
            documents=documents,
        )

        return document_batch_create
