from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.context_node import ContextNode
    from ..models.entity import Entity
    from ..models.neighbour_chunk import NeighbourChunk
    from ..models.parent_section import ParentSection


T = TypeVar("T", bound="HitContext")


@_attrs_define
class HitContext:
    """Where a hit sits: its ancestors, the section around it, the chunks next to it.

    Attributes:
        ancestors (list[ContextNode]): Root first, the chunk's own node excluded.
        entities (list[Entity] | Unset): The chunk's own node's entities.
        next_ (NeighbourChunk | None | Unset):
        parent (None | ParentSection | Unset): The nearest enclosing section (or the parent node).
        parent_summaries (list[str] | Unset): The ancestors' summaries, root first (those written).
        previous (NeighbourChunk | None | Unset):
        summary (None | str | Unset): The chunk's own node's summary.
    """

    ancestors: list[ContextNode]
    entities: list[Entity] | Unset = UNSET
    next_: NeighbourChunk | None | Unset = UNSET
    parent: None | ParentSection | Unset = UNSET
    parent_summaries: list[str] | Unset = UNSET
    previous: NeighbourChunk | None | Unset = UNSET
    summary: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.neighbour_chunk import NeighbourChunk  # noqa: PLC0415
        from ..models.parent_section import ParentSection  # noqa: PLC0415

        ancestors = []
        for ancestors_item_data in self.ancestors:
            ancestors_item = ancestors_item_data.to_dict()
            ancestors.append(ancestors_item)

        entities: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.entities, Unset):
            entities = []
            for entities_item_data in self.entities:
                entities_item = entities_item_data.to_dict()
                entities.append(entities_item)

        next_: dict[str, Any] | None | Unset
        if isinstance(self.next_, Unset):
            next_ = UNSET
        elif isinstance(self.next_, NeighbourChunk):
            next_ = self.next_.to_dict()
        else:
            next_ = self.next_

        parent: dict[str, Any] | None | Unset
        if isinstance(self.parent, Unset):
            parent = UNSET
        elif isinstance(self.parent, ParentSection):
            parent = self.parent.to_dict()
        else:
            parent = self.parent

        parent_summaries: list[str] | Unset = UNSET
        if not isinstance(self.parent_summaries, Unset):
            parent_summaries = self.parent_summaries

        previous: dict[str, Any] | None | Unset
        if isinstance(self.previous, Unset):
            previous = UNSET
        elif isinstance(self.previous, NeighbourChunk):
            previous = self.previous.to_dict()
        else:
            previous = self.previous

        summary: None | str | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        else:
            summary = self.summary

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ancestors": ancestors,
            }
        )
        if entities is not UNSET:
            field_dict["entities"] = entities
        if next_ is not UNSET:
            field_dict["next"] = next_
        if parent is not UNSET:
            field_dict["parent"] = parent
        if parent_summaries is not UNSET:
            field_dict["parent_summaries"] = parent_summaries
        if previous is not UNSET:
            field_dict["previous"] = previous
        if summary is not UNSET:
            field_dict["summary"] = summary

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.context_node import ContextNode  # noqa: PLC0415
        from ..models.entity import Entity  # noqa: PLC0415
        from ..models.neighbour_chunk import NeighbourChunk  # noqa: PLC0415
        from ..models.parent_section import ParentSection  # noqa: PLC0415

        d = dict(src_dict)
        ancestors = []
        _ancestors = d.pop("ancestors")
        for ancestors_item_data in _ancestors:
            ancestors_item = ContextNode.from_dict(ancestors_item_data)

            ancestors.append(ancestors_item)

        _entities = d.pop("entities", UNSET)
        entities: list[Entity] | Unset = UNSET
        if _entities is not UNSET:
            entities = []
            for entities_item_data in _entities:
                entities_item = Entity.from_dict(entities_item_data)

                entities.append(entities_item)

        def _parse_next_(data: object) -> NeighbourChunk | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                next_type_0 = NeighbourChunk.from_dict(data)

                return next_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NeighbourChunk | None | Unset, data)

        next_ = _parse_next_(d.pop("next", UNSET))

        def _parse_parent(data: object) -> None | ParentSection | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                parent_type_0 = ParentSection.from_dict(data)

                return parent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ParentSection | Unset, data)

        parent = _parse_parent(d.pop("parent", UNSET))

        parent_summaries = cast(list[str], d.pop("parent_summaries", UNSET))

        def _parse_previous(data: object) -> NeighbourChunk | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                previous_type_0 = NeighbourChunk.from_dict(data)

                return previous_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NeighbourChunk | None | Unset, data)

        previous = _parse_previous(d.pop("previous", UNSET))

        def _parse_summary(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))

        hit_context = cls(
            ancestors=ancestors,
            entities=entities,
            next_=next_,
            parent=parent,
            parent_summaries=parent_summaries,
            previous=previous,
            summary=summary,
        )

        hit_context.additional_properties = d
        return hit_context

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
