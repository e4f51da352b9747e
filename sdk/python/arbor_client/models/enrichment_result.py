from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EnrichmentResult")


@_attrs_define
class EnrichmentResult:
    """
    Attributes:
        document_id (UUID):
        enriched_nodes (int): Nodes of the tree that now have an enrichment.
        written (int): Nodes whose enrichment this request set or removed.
    """

    document_id: UUID
    enriched_nodes: int
    written: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        document_id = str(self.document_id)

        enriched_nodes = self.enriched_nodes

        written = self.written

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "document_id": document_id,
                "enriched_nodes": enriched_nodes,
                "written": written,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        document_id = UUID(d.pop("document_id"))

        enriched_nodes = d.pop("enriched_nodes")

        written = d.pop("written")

        enrichment_result = cls(
            document_id=document_id,
            enriched_nodes=enriched_nodes,
            written=written,
        )

        enrichment_result.additional_properties = d
        return enrichment_result

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
