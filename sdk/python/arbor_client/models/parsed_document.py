from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.document_node import DocumentNode
    from ..models.parsed_document_metadata_type_0 import ParsedDocumentMetadataType0


T = TypeVar("T", bound="ParsedDocument")


@_attrs_define
class ParsedDocument:
    """The extracted text, its tree, and what the parser learned about the document.

    Attributes:
        format_ (str):
        root (DocumentNode): The root of every document tree; it spans the whole extracted text.
        text (str):
        title (None | str):
        csv_header (list[str] | None | Unset):
        metadata (None | ParsedDocumentMetadataType0 | Unset):
        ocr_pages (list[int] | None | Unset):
        page_count (int | None | Unset):
        page_offsets (list[int] | None | Unset):
    """

    format_: str
    root: DocumentNode
    text: str
    title: None | str
    csv_header: list[str] | None | Unset = UNSET
    metadata: None | ParsedDocumentMetadataType0 | Unset = UNSET
    ocr_pages: list[int] | None | Unset = UNSET
    page_count: int | None | Unset = UNSET
    page_offsets: list[int] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.parsed_document_metadata_type_0 import ParsedDocumentMetadataType0  # noqa: PLC0415

        format_ = self.format_

        root = self.root.to_dict()

        text = self.text

        title: None | str
        title = self.title

        csv_header: list[str] | None | Unset
        if isinstance(self.csv_header, Unset):
            csv_header = UNSET
        elif isinstance(self.csv_header, list):
            csv_header = self.csv_header

        else:
            csv_header = self.csv_header

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, ParsedDocumentMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        ocr_pages: list[int] | None | Unset
        if isinstance(self.ocr_pages, Unset):
            ocr_pages = UNSET
        elif isinstance(self.ocr_pages, list):
            ocr_pages = self.ocr_pages

        else:
            ocr_pages = self.ocr_pages

        page_count: int | None | Unset
        if isinstance(self.page_count, Unset):
            page_count = UNSET
        else:
            page_count = self.page_count

        page_offsets: list[int] | None | Unset
        if isinstance(self.page_offsets, Unset):
            page_offsets = UNSET
        elif isinstance(self.page_offsets, list):
            page_offsets = self.page_offsets

        else:
            page_offsets = self.page_offsets

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "format": format_,
                "root": root,
                "text": text,
                "title": title,
            }
        )
        if csv_header is not UNSET:
            field_dict["csv_header"] = csv_header
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if ocr_pages is not UNSET:
            field_dict["ocr_pages"] = ocr_pages
        if page_count is not UNSET:
            field_dict["page_count"] = page_count
        if page_offsets is not UNSET:
            field_dict["page_offsets"] = page_offsets

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document_node import DocumentNode  # noqa: PLC0415
        from ..models.parsed_document_metadata_type_0 import ParsedDocumentMetadataType0  # noqa: PLC0415

        d = dict(src_dict)
        format_ = d.pop("format")

        root = DocumentNode.from_dict(d.pop("root"))

        text = d.pop("text")

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        def _parse_csv_header(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                csv_header_type_0 = cast(list[str], data)

                return csv_header_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        csv_header = _parse_csv_header(d.pop("csv_header", UNSET))

        def _parse_metadata(data: object) -> None | ParsedDocumentMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = ParsedDocumentMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ParsedDocumentMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

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

        def _parse_page_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        page_count = _parse_page_count(d.pop("page_count", UNSET))

        def _parse_page_offsets(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                page_offsets_type_0 = cast(list[int], data)

                return page_offsets_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        page_offsets = _parse_page_offsets(d.pop("page_offsets", UNSET))

        parsed_document = cls(
            format_=format_,
            root=root,
            text=text,
            title=title,
            csv_header=csv_header,
            metadata=metadata,
            ocr_pages=ocr_pages,
            page_count=page_count,
            page_offsets=page_offsets,
        )

        return parsed_document
