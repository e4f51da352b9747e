from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.configuration_result_options import ConfigurationResultOptions
    from ..models.measures import Measures
    from ..models.query_result import QueryResult


T = TypeVar("T", bound="ConfigurationResult")


@_attrs_define
class ConfigurationResult:
    """
    Attributes:
        mean_latency_ms (float):
        measures (Measures):
        name (str):
        options (ConfigurationResultOptions):
        queries (list[QueryResult]):
    """

    mean_latency_ms: float
    measures: Measures
    name: str
    options: ConfigurationResultOptions
    queries: list[QueryResult]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        mean_latency_ms = self.mean_latency_ms

        measures = self.measures.to_dict()

        name = self.name

        options = self.options.to_dict()

        queries = []
        for queries_item_data in self.queries:
            queries_item = queries_item_data.to_dict()
            queries.append(queries_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "mean_latency_ms": mean_latency_ms,
                "measures": measures,
                "name": name,
                "options": options,
                "queries": queries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.configuration_result_options import ConfigurationResultOptions  # noqa: PLC0415
        from ..models.measures import Measures  # noqa: PLC0415
        from ..models.query_result import QueryResult  # noqa: PLC0415

        d = dict(src_dict)
        mean_latency_ms = d.pop("mean_latency_ms")

        measures = Measures.from_dict(d.pop("measures"))

        name = d.pop("name")

        options = ConfigurationResultOptions.from_dict(d.pop("options"))

        queries = []
        _queries = d.pop("queries")
        for queries_item_data in _queries:
            queries_item = QueryResult.from_dict(queries_item_data)

            queries.append(queries_item)

        configuration_result = cls(
            mean_latency_ms=mean_latency_ms,
            measures=measures,
            name=name,
            options=options,
            queries=queries,
        )

        configuration_result.additional_properties = d
        return configuration_result

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
