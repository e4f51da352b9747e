from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.entity import Entity


T = TypeVar("T", bound="NodeEnrichment")


@_attrs_define
class NodeEnrichment:
    """What an enricher (a summariser, an entity extractor) derived from a node's text.

    Parsing never sets it; it is written through the API and survives a reindex. Search's
    `include=context` returns the ancestors' summaries with each hit.

        Attributes:
            entities (list[Entity] | Unset):
            keywords (list[str] | Unset):
            summary (None | str | Unset):
    """

    entities: list[Entity] | Unset = UNSET
    keywords: list[str] | Unset = UNSET
    summary: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        entities: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.entities, Unset):
            entities = []
            for entities_item_data in self.entities:
                entities_item = entities_item_data.to_dict()
                entities.append(entities_item)

        keywords: list[str] | Unset = UNSET
        if not isinstance(self.keywords, Unset):
            keywords = self.keywords

        summary: None | str | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        else:
            summary = self.summary

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if entities is not UNSET:
            field_dict["entities"] = entities
        if keywords is not UNSET:
            field_dict["keywords"] = keywords
        if summary is not UNSET:
            field_dict["summary"] = summary

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.entity import Entity  # noqa: PLC0415

        d = dict(src_dict)
        _entities = d.pop("entities", UNSET)
        entities: list[Entity] | Unset = UNSET
        if _entities is not UNSET:
            entities = []
            for entities_item_data in _entities:
                entities_item = Entity.from_dict(entities_item_data)

                entities.append(entities_item)

        keywords = cast(list[str], d.pop("keywords", UNSET))

        def _parse_summary(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))

        node_enrichment = cls(
            entities=entities,
            keywords=keywords,
            summary=summary,
        )

        return node_enrichment
