from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.parse_read_metadata import ParseReadMetadata
    from ..models.parse_read_tree import ParseReadTree
    from ..models.parsed_chunk import ParsedChunk


T = TypeVar("T", bound="ParseRead")


@_attrs_define
class ParseRead:
    """The parsed document: offsets in `tree` and `chunks` count Unicode code points of `text`.

    Attributes:
        format_ (str): The format parsed: given, or detected as uploads detect it.
        text (str): The extracted text the offsets refer to.
        title (str): The document title an upload would get: `title`, else one the document carries (first markdown
            heading, HTML <title>, PDF or DOCX metadata), else the file name's stem; empty when there is none.
        tree (ParseReadTree): The tree's root node, exactly as `GET .../documents/{doc}/tree` returns it in `root` for
            an upload of the same bytes: nodes with `node_id`, `kind`, `range`, `text`, `children` (docs/ingestion.md, 'The
            tree').
        chunks (list[ParsedChunk] | None | Unset): With `knowledge_base`: the chunks an upload to it would get, in
            order, as `GET .../documents/{doc}/chunks` would list them.
        metadata (ParseReadMetadata | Unset): What the document says of itself (an e-mail's `from`, `to`, `cc`, `date`,
            `subject`, `message_id`): an upload merges it into the document's metadata, under the upload's own keys.
        ocr_pages (list[int] | None | Unset): The pages (of a PDF or image) whose text was read by OCR.
        page_count (int | None | Unset): PDF, PPTX (slides), images.
    """

    format_: str
    text: str
    title: str
    tree: ParseReadTree
    chunks: list[ParsedChunk] | None | Unset = UNSET
    metadata: ParseReadMetadata | Unset = UNSET
    ocr_pages: list[int] | None | Unset = UNSET
    page_count: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_

        text = self.text

        title = self.title

        tree = self.tree.to_dict()

        chunks: list[dict[str, Any]] | None | Unset
        if isinstance(self.chunks, Unset):
            chunks = UNSET
        elif isinstance(self.chunks, list):
            chunks = []
            for chunks_type_0_item_data in self.chunks:
                chunks_type_0_item = chunks_type_0_item_data.to_dict()
                chunks.append(chunks_type_0_item)

        else:
            chunks = self.chunks

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "format": format_,
                "text": text,
                "title": title,
                "tree": tree,
            }
        )
        if chunks is not UNSET:
            field_dict["chunks"] = chunks
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if ocr_pages is not UNSET:
            field_dict["ocr_pages"] = ocr_pages
        if page_count is not UNSET:
            field_dict["page_count"] = page_count

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.parse_read_metadata import ParseReadMetadata  # noqa: PLC0415
        from ..models.parse_read_tree import ParseReadTree  # noqa: PLC0415
        from ..models.parsed_chunk import ParsedChunk  # noqa: PLC0415

        d = dict(src_dict)
        format_ = d.pop("format")

        text = d.pop("text")

        title = d.pop("title")

        tree = ParseReadTree.from_dict(d.pop("tree"))

        def _parse_chunks(data: object) -> list[ParsedChunk] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                chunks_type_0 = []
                _chunks_type_0 = data
                for chunks_type_0_item_data in _chunks_type_0:
                    chunks_type_0_item = ParsedChunk.from_dict(chunks_type_0_item_data)

                    chunks_type_0.append(chunks_type_0_item)

                return chunks_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ParsedChunk] | None | Unset, data)

        chunks = _parse_chunks(d.pop("chunks", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: ParseReadMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = ParseReadMetadata.from_dict(_metadata)

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

        parse_read = cls(
            format_=format_,
            text=text,
            title=title,
            tree=tree,
            chunks=chunks,
            metadata=metadata,
            ocr_pages=ocr_pages,
            page_count=page_count,
        )

        parse_read.additional_properties = d
        return parse_read

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
