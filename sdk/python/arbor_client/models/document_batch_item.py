from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.document_read import DocumentRead


T = TypeVar("T", bound="DocumentBatchItem")


@_attrs_define
class DocumentBatchItem:
    """
    Attributes:
        created (bool): False: the same bytes were uploaded before; no new work.
        document (DocumentRead):
    """

    created: bool
    document: DocumentRead
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created = self.created

        document = self.document.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created": created,
                "document": document,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_read import DocumentRead  # noqa: PLC0415

        d = dict(src_dict)
        created = d.pop("created")

        document = DocumentRead.from_dict(d.pop("document"))

        document_batch_item = cls(
            created=created,
            document=document,
        )

        document_batch_item.additional_properties = d
        return document_batch_item

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
