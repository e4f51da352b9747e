from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.chunk_bulk_item_metadata import ChunkBulkItemMetadata


T = TypeVar("T", bound="ChunkBulkItem")


@_attrs_define
class ChunkBulkItem:
    """
    Attributes:
        doc_id (str): A document id, or an external id; an unknown one creates a document.
        text (str):
        chunk_id (None | Unset | UUID): Generated when absent. Unique within the knowledge base: another knowledge base
            may hold the same id, and this write never touches its chunk.
        chunk_index (int | Unset):  Default: 0.
        depth (int | Unset):  Default: 0.
        doc_title (str | Unset):  Default: ''.
        end_offset (int | None | Unset):
        leaf_node_id (None | str | Unset):
        metadata (ChunkBulkItemMetadata | Unset):
        node_path (list[str] | Unset): Node ids, root to leaf.
        page_end (int | None | Unset):
        page_start (int | None | Unset):
        section_titles (list[str] | Unset):
        start_offset (int | None | Unset): Unicode code points.
        vector (list[float] | None | str | Unset): Supply to skip embedding; length must match the KB. Either a list of
            numbers, or the vector's little-endian float32 bytes in base64 (what OpenAI's `encoding_format: "base64"`
            returns): a quarter of the size, and for bulk loads parsed some 40 times faster.
    """

    doc_id: str
    text: str
    chunk_id: None | Unset | UUID = UNSET
    chunk_index: int | Unset = 0
    depth: int | Unset = 0
    doc_title: str | Unset = ""
    end_offset: int | None | Unset = UNSET
    leaf_node_id: None | str | Unset = UNSET
    metadata: ChunkBulkItemMetadata | Unset = UNSET
    node_path: list[str] | Unset = UNSET
    page_end: int | None | Unset = UNSET
    page_start: int | None | Unset = UNSET
    section_titles: list[str] | Unset = UNSET
    start_offset: int | None | Unset = UNSET
    vector: list[float] | None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        doc_id = self.doc_id

        text = self.text

        chunk_id: None | str | Unset
        if isinstance(self.chunk_id, Unset):
            chunk_id = UNSET
        elif isinstance(self.chunk_id, UUID):
            chunk_id = str(self.chunk_id)
        else:
            chunk_id = self.chunk_id

        chunk_index = self.chunk_index

        depth = self.depth

        doc_title = self.doc_title

        end_offset: int | None | Unset
        if isinstance(self.end_offset, Unset):
            end_offset = UNSET
        else:
            end_offset = self.end_offset

        leaf_node_id: None | str | Unset
        if isinstance(self.leaf_node_id, Unset):
            leaf_node_id = UNSET
        else:
            leaf_node_id = self.leaf_node_id

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        node_path: list[str] | Unset = UNSET
        if not isinstance(self.node_path, Unset):
            node_path = self.node_path

        page_end: int | None | Unset
        if isinstance(self.page_end, Unset):
            page_end = UNSET
        else:
            page_end = self.page_end

        page_start: int | None | Unset
        if isinstance(self.page_start, Unset):
            page_start = UNSET
        else:
            page_start = self.page_start

        section_titles: list[str] | Unset = UNSET
        if not isinstance(self.section_titles, Unset):
            section_titles = self.section_titles

        start_offset: int | None | Unset
        if isinstance(self.start_offset, Unset):
            start_offset = UNSET
        else:
            start_offset = self.start_offset

        vector: list[float] | None | str | Unset
        if isinstance(self.vector, Unset):
            vector = UNSET
        elif isinstance(self.vector, list):
            vector = self.vector

        else:
            vector = self.vector

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "doc_id": doc_id,
                "text": text,
            }
        )
        if chunk_id is not UNSET:
            field_dict["chunk_id"] = chunk_id
        if chunk_index is not UNSET:
            field_dict["chunk_index"] = chunk_index
        if depth is not UNSET:
            field_dict["depth"] = depth
        if doc_title is not UNSET:
            field_dict["doc_title"] = doc_title
        if end_offset is not UNSET:
            field_dict["end_offset"] = end_offset
        if leaf_node_id is not UNSET:
            field_dict["leaf_node_id"] = leaf_node_id
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if node_path is not UNSET:
            field_dict["node_path"] = node_path
        if page_end is not UNSET:
            field_dict["page_end"] = page_end
        if page_start is not UNSET:
            field_dict["page_start"] = page_start
        if section_titles is not UNSET:
            field_dict["section_titles"] = section_titles
        if start_offset is not UNSET:
            field_dict["start_offset"] = start_offset
        if vector is not UNSET:
            field_dict["vector"] = vector

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.chunk_bulk_item_metadata import ChunkBulkItemMetadata  # noqa: PLC0415

        d = dict(src_dict)
        doc_id = d.pop("doc_id")

        text = d.pop("text")

        def _parse_chunk_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                chunk_id_type_0 = UUID(data)

                return chunk_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        chunk_id = _parse_chunk_id(d.pop("chunk_id", UNSET))

        chunk_index = d.pop("chunk_index", UNSET)

        depth = d.pop("depth", UNSET)

        doc_title = d.pop("doc_title", UNSET)

        def _parse_end_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        end_offset = _parse_end_offset(d.pop("end_offset", UNSET))

        def _parse_leaf_node_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        leaf_node_id = _parse_leaf_node_id(d.pop("leaf_node_id", UNSET))

        _metadata = d.pop("metadata", UNSET)
        metadata: ChunkBulkItemMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = ChunkBulkItemMetadata.from_dict(_metadata)

        node_path = cast(list[str], d.pop("node_path", UNSET))

        def _parse_page_end(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        page_end = _parse_page_end(d.pop("page_end", UNSET))

        def _parse_page_start(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        page_start = _parse_page_start(d.pop("page_start", UNSET))

        section_titles = cast(list[str], d.pop("section_titles", UNSET))

        def _parse_start_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        start_offset = _parse_start_offset(d.pop("start_offset", UNSET))

        def _parse_vector(data: object) -> list[float] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                vector_type_0 = cast(list[float], data)

                return vector_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | str | Unset, data)

        vector = _parse_vector(d.pop("vector", UNSET))

        chunk_bulk_item = cls(
            doc_id=doc_id,
            text=text,
            chunk_id=chunk_id,
            chunk_index=chunk_index,
            depth=depth,
            doc_title=doc_title,
            end_offset=end_offset,
            leaf_node_id=leaf_node_id,
            metadata=metadata,
            node_path=node_path,
            page_end=page_end,
            page_start=page_start,
            section_titles=section_titles,
            start_offset=start_offset,
            vector=vector,
        )

        return chunk_bulk_item
