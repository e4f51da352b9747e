from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.chunk_span import ChunkSpan
    from ..models.hit_context import HitContext
    from ..models.hit_explain import HitExplain
    from ..models.search_hit_metadata import SearchHitMetadata


T = TypeVar("T", bound="SearchHit")


@_attrs_define
class SearchHit:
    """
    Attributes:
        chunk_id (UUID):
        chunk_index (int):
        depth (int): Depth of `leaf_node_id` in the document tree, the root 0 (as written, for chunks from the chunk
            API).
        doc_id (UUID):
        doc_title (str):
        highlights (list[str]): Fragments with query terms in <mark> tags.
        knowledge_base_id (UUID):
        leaf_node_id (None | str): The deepest tree node holding all of the chunk's text: `node_path`'s last.
        metadata (SearchHitMetadata): The document's metadata, then the chunk's.
        node_path (list[str]):
        score (float):
        section_titles (list[str]):
        text (str):
        context (HitContext | None | Unset):
        end_offset (int | None | Unset):
        explain (HitExplain | None | Unset):
        page_end (int | None | Unset):
        page_start (int | None | Unset):
        source_id (None | Unset | UUID): The knowledge source of the document, if one wrote it.
        source_record_id (None | str | Unset): The document's item in that source (record id, path, URL).
        spans (list[ChunkSpan] | Unset): Set when the chunk holds several small sections merged together: each one's
            lineage and range (`section_titles` names only what they share).
        start_offset (int | None | Unset):
        vector (list[float] | None | Unset):
    """

    chunk_id: UUID
    chunk_index: int
    depth: int
    doc_id: UUID
    doc_title: str
    highlights: list[str]
    knowledge_base_id: UUID
    leaf_node_id: None | str
    metadata: SearchHitMetadata
    node_path: list[str]
    score: float
    section_titles: list[str]
    text: str
    context: HitContext | None | Unset = UNSET
    end_offset: int | None | Unset = UNSET
    explain: HitExplain | None | Unset = UNSET
    page_end: int | None | Unset = UNSET
    page_start: int | None | Unset = UNSET
    source_id: None | Unset | UUID = UNSET
    source_record_id: None | str | Unset = UNSET
    spans: list[ChunkSpan] | Unset = UNSET
    start_offset: int | None | Unset = UNSET
    vector: list[float] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.hit_context import HitContext  # noqa: PLC0415
        from ..models.hit_explain import HitExplain  # noqa: PLC0415

        chunk_id = str(self.chunk_id)

        chunk_index = self.chunk_index

        depth = self.depth

        doc_id = str(self.doc_id)

        doc_title = self.doc_title

        highlights = self.highlights

        knowledge_base_id = str(self.knowledge_base_id)

        leaf_node_id: None | str
        leaf_node_id = self.leaf_node_id

        metadata = self.metadata.to_dict()

        node_path = self.node_path

        score = self.score

        section_titles = self.section_titles

        text = self.text

        context: dict[str, Any] | None | Unset
        if isinstance(self.context, Unset):
            context = UNSET
        elif isinstance(self.context, HitContext):
            context = self.context.to_dict()
        else:
            context = self.context

        end_offset: int | None | Unset
        if isinstance(self.end_offset, Unset):
            end_offset = UNSET
        else:
            end_offset = self.end_offset

        explain: dict[str, Any] | None | Unset
        if isinstance(self.explain, Unset):
            explain = UNSET
        elif isinstance(self.explain, HitExplain):
            explain = self.explain.to_dict()
        else:
            explain = self.explain

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

        source_id: None | str | Unset
        if isinstance(self.source_id, Unset):
            source_id = UNSET
        elif isinstance(self.source_id, UUID):
            source_id = str(self.source_id)
        else:
            source_id = self.source_id

        source_record_id: None | str | Unset
        if isinstance(self.source_record_id, Unset):
            source_record_id = UNSET
        else:
            source_record_id = self.source_record_id

        spans: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.spans, Unset):
            spans = []
            for spans_item_data in self.spans:
                spans_item = spans_item_data.to_dict()
                spans.append(spans_item)

        start_offset: int | None | Unset
        if isinstance(self.start_offset, Unset):
            start_offset = UNSET
        else:
            start_offset = self.start_offset

        vector: list[float] | None | Unset
        if isinstance(self.vector, Unset):
            vector = UNSET
        elif isinstance(self.vector, list):
            vector = self.vector

        else:
            vector = self.vector

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunk_id": chunk_id,
                "chunk_index": chunk_index,
                "depth": depth,
                "doc_id": doc_id,
                "doc_title": doc_title,
                "highlights": highlights,
                "knowledge_base_id": knowledge_base_id,
                "leaf_node_id": leaf_node_id,
                "metadata": metadata,
                "node_path": node_path,
                "score": score,
                "section_titles": section_titles,
                "text": text,
            }
        )
        if context is not UNSET:
            field_dict["context"] = context
        if end_offset is not UNSET:
            field_dict["end_offset"] = end_offset
        if explain is not UNSET:
            field_dict["explain"] = explain
        if page_end is not UNSET:
            field_dict["page_end"] = page_end
        if page_start is not UNSET:
            field_dict["page_start"] = page_start
        if source_id is not UNSET:
            field_dict["source_id"] = source_id
        if source_record_id is not UNSET:
            field_dict["source_record_id"] = source_record_id
        if spans is not UNSET:
            field_dict["spans"] = spans
        if start_offset is not UNSET:
            field_dict["start_offset"] = start_offset
        if vector is not UNSET:
            field_dict["vector"] = vector

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.chunk_span import ChunkSpan  # noqa: PLC0415
        from ..models.hit_context import HitContext  # noqa: PLC0415
        from ..models.hit_explain import HitExplain  # noqa: PLC0415
        from ..models.search_hit_metadata import SearchHitMetadata  # noqa: PLC0415

        d = dict(src_dict)
        chunk_id = UUID(d.pop("chunk_id"))

        chunk_index = d.pop("chunk_index")

        depth = d.pop("depth")

        doc_id = UUID(d.pop("doc_id"))

        doc_title = d.pop("doc_title")

        highlights = cast(list[str], d.pop("highlights"))

        knowledge_base_id = UUID(d.pop("knowledge_base_id"))

        def _parse_leaf_node_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        leaf_node_id = _parse_leaf_node_id(d.pop("leaf_node_id"))

        metadata = SearchHitMetadata.from_dict(d.pop("metadata"))

        node_path = cast(list[str], d.pop("node_path"))

        score = d.pop("score")

        section_titles = cast(list[str], d.pop("section_titles"))

        text = d.pop("text")

        def _parse_context(data: object) -> HitContext | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                context_type_0 = HitContext.from_dict(data)

                return context_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HitContext | None | Unset, data)

        context = _parse_context(d.pop("context", UNSET))

        def _parse_end_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        end_offset = _parse_end_offset(d.pop("end_offset", UNSET))

        def _parse_explain(data: object) -> HitExplain | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                explain_type_0 = HitExplain.from_dict(data)

                return explain_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HitExplain | None | Unset, data)

        explain = _parse_explain(d.pop("explain", UNSET))

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

        def _parse_source_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                source_id_type_0 = UUID(data)

                return source_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        source_id = _parse_source_id(d.pop("source_id", UNSET))

        def _parse_source_record_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_record_id = _parse_source_record_id(d.pop("source_record_id", UNSET))

        _spans = d.pop("spans", UNSET)
        spans: list[ChunkSpan] | Unset = UNSET
        if _spans is not UNSET:
            spans = []
            for spans_item_data in _spans:
                spans_item = ChunkSpan.from_dict(spans_item_data)

                spans.append(spans_item)

        def _parse_start_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        start_offset = _parse_start_offset(d.pop("start_offset", UNSET))

        def _parse_vector(data: object) -> list[float] | None | Unset:
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
            return cast(list[float] | None | Unset, data)

        vector = _parse_vector(d.pop("vector", UNSET))

        search_hit = cls(
            chunk_id=chunk_id,
            chunk_index=chunk_index,
            depth=depth,
            doc_id=doc_id,
            doc_title=doc_title,
            highlights=highlights,
            knowledge_base_id=knowledge_base_id,
            leaf_node_id=leaf_node_id,
            metadata=metadata,
            node_path=node_path,
            score=score,
            section_titles=section_titles,
            text=text,
            context=context,
            end_offset=end_offset,
            explain=explain,
            page_end=page_end,
            page_start=page_start,
            source_id=source_id,
            source_record_id=source_record_id,
            spans=spans,
            start_offset=start_offset,
            vector=vector,
        )

        search_hit.additional_properties = d
        return search_hit

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
