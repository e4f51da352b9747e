from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.configuration_result import ConfigurationResult


T = TypeVar("T", bound="EvaluationResults")


@_attrs_define
class EvaluationResults:
    """
    Attributes:
        configurations (list[ConfigurationResult]):
        queries_evaluated (int): Queries with at least one judgment; each counts in the means (0 when nothing relevant
            is found, as trec_eval -c).
        queries_without_judgments (list[str]):
        unresolved_documents (int): Judged documents that name no document the evaluation could read: counted as
            relevant and never found.
    """

    configurations: list[ConfigurationResult]
    queries_evaluated: int
    queries_without_judgments: list[str]
    unresolved_documents: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        configurations = []
        for configurations_item_data in self.configurations:
            configurations_item = configurations_item_data.to_dict()
            configurations.append(configurations_item)

        queries_evaluated = self.queries_evaluated

        queries_without_judgments = self.queries_without_judgments

        unresolved_documents = self.unresolved_documents

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "configurations": configurations,
                "queries_evaluated": queries_evaluated,
                "queries_without_judgments": queries_without_judgments,
                "unresolved_documents": unresolved_documents,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.configuration_result import ConfigurationResult  # noqa: PLC0415

        d = dict(src_dict)
        configurations = []
        _configurations = d.pop("configurations")
        for configurations_item_data in _configurations:
            configurations_item = ConfigurationResult.from_dict(configurations_item_data)

            configurations.append(configurations_item)

        queries_evaluated = d.pop("queries_evaluated")

        queries_without_judgments = cast(list[str], d.pop("queries_without_judgments"))

        unresolved_documents = d.pop("unresolved_documents")

        evaluation_results = cls(
            configurations=configurations,
            queries_evaluated=queries_evaluated,
            queries_without_judgments=queries_without_judgments,
            unresolved_documents=unresolved_documents,
        )

        evaluation_results.additional_properties = d
        return evaluation_results

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
