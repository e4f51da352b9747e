from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.evaluation_configuration import EvaluationConfiguration
    from ..models.evaluation_query import EvaluationQuery
    from ..models.judgment import Judgment


T = TypeVar("T", bound="EvaluationCreate")


@_attrs_define
class EvaluationCreate:
    """A query set with judgments (BEIR layout) and the search configurations to compare.

    Attributes:
        qrels (list[Judgment]):
        queries (list[EvaluationQuery]):
        configurations (list[EvaluationConfiguration] | Unset): Default: one configuration, `default`, with every search
            default.
        name (None | str | Unset):
    """

    qrels: list[Judgment]
    queries: list[EvaluationQuery]
    configurations: list[EvaluationConfiguration] | Unset = UNSET
    name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        qrels = []
        for qrels_item_data in self.qrels:
            qrels_item = qrels_item_data.to_dict()
            qrels.append(qrels_item)

        queries = []
        for queries_item_data in self.queries:
            queries_item = queries_item_data.to_dict()
            queries.append(queries_item)

        configurations: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.configurations, Unset):
            configurations = []
            for configurations_item_data in self.configurations:
                configurations_item = configurations_item_data.to_dict()
                configurations.append(configurations_item)

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "qrels": qrels,
                "queries": queries,
            }
        )
        if configurations is not UNSET:
            field_dict["configurations"] = configurations
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.evaluation_configuration import EvaluationConfiguration  # noqa: PLC0415
        from ..models.evaluation_query import EvaluationQuery  # noqa: PLC0415
        from ..models.judgment import Judgment  # noqa: PLC0415

        d = dict(src_dict)
        qrels = []
        _qrels = d.pop("qrels")
        for qrels_item_data in _qrels:
            qrels_item = Judgment.from_dict(qrels_item_data)

            qrels.append(qrels_item)

        queries = []
        _queries = d.pop("queries")
        for queries_item_data in _queries:
            queries_item = EvaluationQuery.from_dict(queries_item_data)

            queries.append(queries_item)

        _configurations = d.pop("configurations", UNSET)
        configurations: list[EvaluationConfiguration] | Unset = UNSET
        if _configurations is not UNSET:
            configurations = []
            for configurations_item_data in _configurations:
                configurations_item = EvaluationConfiguration.from_dict(configurations_item_data)

                configurations.append(configurations_item)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        evaluation_create = cls(
            qrels=qrels,
            queries=queries,
            configurations=configurations,
            name=name,
        )

        return evaluation_create
