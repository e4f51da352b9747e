from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_node import DocumentNode


T = TypeVar("T", bound="TreeRead")


@_attrs_define
class TreeRead:
    """The document tree; offsets count Unicode code points of the extracted text.

    Attributes:
        document_id (UUID):
        format_ (None | str):
        page_count (int | None):
        root (DocumentNode): The root of every document tree; it spans the whole extracted text.
        ocr_pages (list[int] | None | Unset): The pages (of a PDF or image) whose text was read by OCR.
    """

    document_id: UUID
    format_: None | str
    page_count: int | None
    root: DocumentNode
    ocr_pages: list[int] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        document_id = str(self.document_id)

        format_: None | str
        format_ = self.format_

        page_count: int | None
        page_count = self.page_count

        root = self.root.to_dict()

        ocr_pages: list[int] | None | Unset
        if isinstance(self.ocr_pages, Unset):
            ocr_pages = UNSET
        elif isinstance(self.ocr_pages, list):
            ocr_pages = self.ocr_pages

        else:
            ocr_pages = self.ocr_pages

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "document_id": document_id,
                "format": format_,
                "page_count": page_count,
                "root": root,
            }
        )
        if ocr_pages is not UNSET:
            field_dict["ocr_pages"] = ocr_pages

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_node import DocumentNode  # noqa: PLC0415

        d = dict(src_dict)
        document_id = UUID(d.pop("document_id"))

        def _parse_format_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        format_ = _parse_format_(d.pop("format"))

        def _parse_page_count(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        page_count = _parse_page_count(d.pop("page_count"))

        root = DocumentNode.from_dict(d.pop("root"))

        def _parse_ocr_pages(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                ocr_pages_type_0 = cast(list[int], data)

                return ocr_pages_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        ocr_pages = _parse_ocr_pages(d.pop("ocr_pages", UNSET))

        tree_read = cls(
            document_id=document_id,
            format_=format_,
            page_count=page_count,
            root=root,
            ocr_pages=ocr_pages,
        )

        tree_read.additional_properties = d
        return tree_read

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
