from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EnrichmentSettings")


@_attrs_define
class EnrichmentSettings:
    """What the enricher writes onto every node of a document's tree after it is embedded.

    Attributes:
        entities (bool | Unset): Named entities per node, from the local NLP pipeline. Default: False.
        keywords (bool | Unset): Keywords per node, by YAKE. Default: False.
        summaries (bool | Unset): An extractive summary per node with text: its most central sentences. Default: False.
    """

    entities: bool | Unset = False
    keywords: bool | Unset = False
    summaries: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        entities = self.entities

        keywords = self.keywords

        summaries = self.summaries

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if entities is not UNSET:
            field_dict["entities"] = entities
        if keywords is not UNSET:
            field_dict["keywords"] = keywords
        if summaries is not UNSET:
            field_dict["summaries"] = summaries

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        entities = d.pop("entities", UNSET)

        keywords = d.pop("keywords", UNSET)

        summaries = d.pop("summaries", UNSET)

        enrichment_settings = cls(
            entities=entities,
            keywords=keywords,
            summaries=summaries,
        )

        return enrichment_settings
