from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.graph_search_result_mode import GraphSearchResultMode

if TYPE_CHECKING:
    from ..models.graph_edge import GraphEdge
    from ..models.graph_node import GraphNode
    from ..models.graph_search_result_actions_item import GraphSearchResultActionsItem


T = TypeVar("T", bound="GraphSearchResult")


@_attrs_define
class GraphSearchResult:
    """
    Attributes:
        actions (list[GraphSearchResultActionsItem]): What each step did; a degraded step says so (`degraded: true`).
        definitions (str): `name: summary` pairs, comma-separated.
        edges (list[GraphEdge]):
        entities (list[str]): The query's entities (standard mode).
        facts (str): One line per edge: `<source> <type> <target>, <fact>`.
        mermaid (str):
        mode (GraphSearchResultMode):
        nodes (list[GraphNode]):
    """

    actions: list[GraphSearchResultActionsItem]
    definitions: str
    edges: list[GraphEdge]
    entities: list[str]
    facts: str
    mermaid: str
    mode: GraphSearchResultMode
    nodes: list[GraphNode]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        actions = []
        for actions_item_data in self.actions:
            actions_item = actions_item_data.to_dict()
            actions.append(actions_item)

        definitions = self.definitions

        edges = []
        for edges_item_data in self.edges:
            edges_item = edges_item_data.to_dict()
            edges.append(edges_item)

        entities = self.entities

        facts = self.facts

        mermaid = self.mermaid

        mode = self.mode.value

        nodes = []
        for nodes_item_data in self.nodes:
            nodes_item = nodes_item_data.to_dict()
            nodes.append(nodes_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actions": actions,
                "definitions": definitions,
                "edges": edges,
                "entities": entities,
                "facts": facts,
                "mermaid": mermaid,
                "mode": mode,
                "nodes": nodes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.graph_edge import GraphEdge  # noqa: PLC0415
        from ..models.graph_node import GraphNode  # noqa: PLC0415
        from ..models.graph_search_result_actions_item import GraphSearchResultActionsItem  # noqa: PLC0415

        d = dict(src_dict)
        actions = []
        _actions = d.pop("actions")
        for actions_item_data in _actions:
            actions_item = GraphSearchResultActionsItem.from_dict(actions_item_data)

            actions.append(actions_item)

        definitions = d.pop("definitions")

        edges = []
        _edges = d.pop("edges")
        for edges_item_data in _edges:
            edges_item = GraphEdge.from_dict(edges_item_data)

            edges.append(edges_item)

        entities = cast(list[str], d.pop("entities"))

        facts = d.pop("facts")

        mermaid = d.pop("mermaid")

        mode = GraphSearchResultMode(d.pop("mode"))

        nodes = []
        _nodes = d.pop("nodes")
        for nodes_item_data in _nodes:
            nodes_item = GraphNode.from_dict(nodes_item_data)

            nodes.append(nodes_item)

        graph_search_result = cls(
            actions=actions,
            definitions=definitions,
            edges=edges,
            entities=entities,
            facts=facts,
            mermaid=mermaid,
            mode=mode,
            nodes=nodes,
        )

        graph_search_result.additional_properties = d
        return graph_search_result

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
