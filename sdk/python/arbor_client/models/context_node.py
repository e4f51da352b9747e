from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.entity import Entity


T = TypeVar("T", bound="ContextNode")


@_attrs_define
class ContextNode:
    """A node of the document tree on the way from the root to the chunk.

    Attributes:
        node_id (str):
        end_offset (int | None | Unset):
        entities (list[Entity] | Unset): From its enrichment.
        keywords (list[str] | Unset): From its enrichment.
        kind (None | str | Unset):
        page_end (int | None | Unset):
        page_start (int | None | Unset):
        start_offset (int | None | Unset):
        summary (None | str | Unset): The node's enrichment summary, when one was written.
        title (None | str | Unset):
    """

    node_id: str
    end_offset: int | None | Unset = UNSET
    entities: list[Entity] | Unset = UNSET
    keywords: list[str] | Unset = UNSET
    kind: None | str | Unset = UNSET
    page_end: int | None | Unset = UNSET
    page_start: int | None | Unset = UNSET
    start_offset: int | None | Unset = UNSET
    summary: None | str | Unset = UNSET
    title: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        node_id = self.node_id

        end_offset: int | None | Unset
        if isinstance(self.end_offset, Unset):
            end_offset = UNSET
        else:
            end_offset = self.end_offset

        entities: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.entities, Unset):
            entities = []
            for entities_item_data in self.entities:
                entities_item = entities_item_data.to_dict()
                entities.append(entities_item)

        keywords: list[str] | Unset = UNSET
        if not isinstance(self.keywords, Unset):
            keywords = self.keywords

        kind: None | str | Unset
        if isinstance(self.kind, Unset):
            kind = UNSET
        else:
            kind = self.kind

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

        start_offset: int | None | Unset
        if isinstance(self.start_offset, Unset):
            start_offset = UNSET
        else:
            start_offset = self.start_offset

        summary: None | str | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        else:
            summary = self.summary

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "node_id": node_id,
            }
        )
        if end_offset is not UNSET:
            field_dict["end_offset"] = end_offset
        if entities is not UNSET:
            field_dict["entities"] = entities
        if keywords is not UNSET:
            field_dict["keywords"] = keywords
        if kind is not UNSET:
            field_dict["kind"] = kind
        if page_end is not UNSET:
            field_dict["page_end"] = page_end
        if page_start is not UNSET:
            field_dict["page_start"] = page_start
        if start_offset is not UNSET:
            field_dict["start_offset"] = start_offset
        if summary is not UNSET:
            field_dict["summary"] = summary
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.entity import Entity  # noqa: PLC0415

        d = dict(src_dict)
        node_id = d.pop("node_id")

        def _parse_end_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        end_offset = _parse_end_offset(d.pop("end_offset", UNSET))

        _entities = d.pop("entities", UNSET)
        entities: list[Entity] | Unset = UNSET
        if _entities is not UNSET:
            entities = []
            for entities_item_data in _entities:
                entities_item = Entity.from_dict(entities_item_data)

                entities.append(entities_item)

        keywords = cast(list[str], d.pop("keywords", UNSET))

        def _parse_kind(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kind = _parse_kind(d.pop("kind", UNSET))

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

        def _parse_start_offset(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        start_offset = _parse_start_offset(d.pop("start_offset", UNSET))

        def _parse_summary(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        context_node = cls(
            node_id=node_id,
            end_offset=end_offset,
            entities=entities,
            keywords=keywords,
            kind=kind,
            page_end=page_end,
            page_start=page_start,
            start_offset=start_offset,
            summary=summary,
            title=title,
        )

        context_node.additional_properties = d
        return context_node

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
