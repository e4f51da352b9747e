from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.graph_settings_extractor import GraphSettingsExtractor
from ..types import UNSET, Unset

T = TypeVar("T", bound="GraphSettings")


@_attrs_define
class GraphSettings:
    """Whether documents feed the knowledge base's entity and relation graph, and how.

    Attributes:
        enabled (bool | Unset):  Default: False.
        extractor (GraphSettingsExtractor | Unset): `local`: the offline spaCy pipeline. `llm`: the configured OpenAI-
            compatible chat model (`ARBOR_LLM_*`). Default: GraphSettingsExtractor.LOCAL.
    """

    enabled: bool | Unset = False
    extractor: GraphSettingsExtractor | Unset = GraphSettingsExtractor.LOCAL

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        extractor: str | Unset = UNSET
        if not isinstance(self.extractor, Unset):
            extractor = self.extractor.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if extractor is not UNSET:
            field_dict["extractor"] = extractor

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled", UNSET)

        _extractor = d.pop("extractor", UNSET)
        extractor: GraphSettingsExtractor | Unset
        if isinstance(_extractor, Unset):
            extractor = UNSET
        else:
            extractor = GraphSettingsExtractor(_extractor)

        graph_settings = cls(
            enabled=enabled,
            extractor=extractor,
        )

        return graph_settings
