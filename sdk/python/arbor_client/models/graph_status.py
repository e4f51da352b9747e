from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.enrichment_settings import EnrichmentSettings
    from ..models.graph_settings import GraphSettings
    from ..models.graph_status_jobs import GraphStatusJobs


T = TypeVar("T", bound="GraphStatus")


@_attrs_define
class GraphStatus:
    """
    Attributes:
        enrichment (EnrichmentSettings): What the enricher writes onto every node of a document's tree after it is
            embedded.
        entities (int): Entities in the knowledge base (all documents).
        graph (GraphSettings): Whether documents feed the knowledge base's entity and relation graph, and how.
        jobs (GraphStatusJobs): The knowledge base's graph jobs by status.
        relations (int): Relations in the knowledge base (all documents).
    """

    enrichment: EnrichmentSettings
    entities: int
    graph: GraphSettings
    jobs: GraphStatusJobs
    relations: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        enrichment = self.enrichment.to_dict()

        entities = self.entities

        graph = self.graph.to_dict()

        jobs = self.jobs.to_dict()

        relations = self.relations

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "enrichment": enrichment,
                "entities": entities,
                "graph": graph,
                "jobs": jobs,
                "relations": relations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.enrichment_settings import EnrichmentSettings  # noqa: PLC0415
        from ..models.graph_settings import GraphSettings  # noqa: PLC0415
        from ..models.graph_status_jobs import GraphStatusJobs  # noqa: PLC0415

        d = dict(src_dict)
        enrichment = EnrichmentSettings.from_dict(d.pop("enrichment"))

        entities = d.pop("entities")

        graph = GraphSettings.from_dict(d.pop("graph"))

        jobs = GraphStatusJobs.from_dict(d.pop("jobs"))

        relations = d.pop("relations")

        graph_status = cls(
            enrichment=enrichment,
            entities=entities,
            graph=graph,
            jobs=jobs,
            relations=relations,
        )

        graph_status.additional_properties = d
        return graph_status

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
