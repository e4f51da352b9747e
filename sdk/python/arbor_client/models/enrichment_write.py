from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.node_enrichment_write import NodeEnrichmentWrite


T = TypeVar("T", bound="EnrichmentWrite")


@_attrs_define
class EnrichmentWrite:
    """Enrichment for many nodes of one document, written together or not at all.

    Attributes:
        nodes (list[NodeEnrichmentWrite]):
    """

    nodes: list[NodeEnrichmentWrite]

    def to_dict(self) -> dict[str, Any]:
        nodes = []
        for nodes_item_data in self.nodes:
            nodes_item = nodes_item_data.to_dict()
            nodes.append(nodes_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "nodes": nodes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.node_enrichment_write import NodeEnrichmentWrite  # noqa: PLC0415

        d = dict(src_dict)
        nodes = []
        _nodes = d.pop("nodes")
        for nodes_item_data in _nodes:
            nodes_item = NodeEnrichmentWrite.from_dict(nodes_item_data)

            nodes.append(nodes_item)

        enrichment_write = cls(
            nodes=nodes,
        )

        return enrichment_write
