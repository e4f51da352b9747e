from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.node_enrichment import NodeEnrichment


T = TypeVar("T", bound="NodeEnrichmentWrite")


@_attrs_define
class NodeEnrichmentWrite:
    """
    Attributes:
        enrichment (NodeEnrichment | None): null removes the node's enrichment.
        node_id (str):
    """

    enrichment: NodeEnrichment | None
    node_id: str

    def to_dict(self) -> dict[str, Any]:
        from ..models.node_enrichment import NodeEnrichment  # noqa: PLC0415

        enrichment: dict[str, Any] | None
        if isinstance(self.enrichment, NodeEnrichment):
            enrichment = self.enrichment.to_dict()
        else:
            enrichment = self.enrichment

        node_id = self.node_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "enrichment": enrichment,
                "node_id": node_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.node_enrichment import NodeEnrichment  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_enrichment(data: object) -> NodeEnrichment | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                enrichment_type_0 = NodeEnrichment.from_dict(data)

                return enrichment_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NodeEnrichment | None, data)

        enrichment = _parse_enrichment(d.pop("enrichment"))

        node_id = d.pop("node_id")

        node_enrichment_write = cls(
            enrichment=enrichment,
            node_id=node_id,
        )

        return node_enrichment_write
