from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.evaluation_results import EvaluationResults


T = TypeVar("T", bound="EvaluationRead")


@_attrs_define
class EvaluationRead:
    """
    Attributes:
        configurations (list[str]):
        created_at (datetime.datetime):
        id (UUID):
        job_id (None | UUID):
        judgments (int):
        knowledge_base_id (UUID):
        name (None | str):
        queries (int):
        status (str): `queued`, `running`, `succeeded` or `failed`.
        error (None | str | Unset):
        finished_at (datetime.datetime | None | Unset):
        results (EvaluationResults | None | Unset):
    """

    configurations: list[str]
    created_at: datetime.datetime
    id: UUID
    job_id: None | UUID
    judgments: int
    knowledge_base_id: UUID
    name: None | str
    queries: int
    status: str
    error: None | str | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    results: EvaluationResults | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.evaluation_results import EvaluationResults  # noqa: PLC0415

        configurations = self.configurations

        created_at = self.created_at.isoformat()

        id = str(self.id)

        job_id: None | str
        if isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        judgments = self.judgments

        knowledge_base_id = str(self.knowledge_base_id)

        name: None | str
        name = self.name

        queries = self.queries

        status = self.status

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        results: dict[str, Any] | None | Unset
        if isinstance(self.results, Unset):
            results = UNSET
        elif isinstance(self.results, EvaluationResults):
            results = self.results.to_dict()
        else:
            results = self.results

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "configurations": configurations,
                "created_at": created_at,
                "id": id,
                "job_id": job_id,
                "judgments": judgments,
                "knowledge_base_id": knowledge_base_id,
                "name": name,
                "queries": queries,
                "status": status,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if results is not UNSET:
            field_dict["results"] = results

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.evaluation_results import EvaluationResults  # noqa: PLC0415

        d = dict(src_dict)
        configurations = cast(list[str], d.pop("configurations"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = UUID(d.pop("id"))

        def _parse_job_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                job_id_type_0 = UUID(data)

                return job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        job_id = _parse_job_id(d.pop("job_id"))

        judgments = d.pop("judgments")

        knowledge_base_id = UUID(d.pop("knowledge_base_id"))

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        queries = d.pop("queries")

        status = d.pop("status")

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))

        def _parse_results(data: object) -> EvaluationResults | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                results_type_0 = EvaluationResults.from_dict(data)

                return results_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EvaluationResults | None | Unset, data)

        results = _parse_results(d.pop("results", UNSET))

        evaluation_read = cls(
            configurations=configurations,
            created_at=created_at,
            id=id,
            job_id=job_id,
            judgments=judgments,
            knowledge_base_id=knowledge_base_id,
            name=name,
            queries=queries,
            status=status,
            error=error,
            finished_at=finished_at,
            results=results,
        )

        evaluation_read.additional_properties = d
        return evaluation_read

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
