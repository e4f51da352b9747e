from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.evaluation_summary_measures import EvaluationSummaryMeasures


T = TypeVar("T", bound="EvaluationSummary")


@_attrs_define
class EvaluationSummary:
    """An evaluation in a listing: its means, without per-query rows.

    Attributes:
        created_at (datetime.datetime):
        id (UUID):
        name (None | str):
        status (str):
        finished_at (datetime.datetime | None | Unset):
        measures (EvaluationSummaryMeasures | Unset): Per configuration name, once succeeded.
    """

    created_at: datetime.datetime
    id: UUID
    name: None | str
    status: str
    finished_at: datetime.datetime | None | Unset = UNSET
    measures: EvaluationSummaryMeasures | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = str(self.id)

        name: None | str
        name = self.name

        status = self.status

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        measures: dict[str, Any] | Unset = UNSET
        if not isinstance(self.measures, Unset):
            measures = self.measures.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "id": id,
                "name": name,
                "status": status,
            }
        )
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if measures is not UNSET:
            field_dict["measures"] = measures

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.evaluation_summary_measures import EvaluationSummaryMeasures  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = UUID(d.pop("id"))

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        status = d.pop("status")

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

        _measures = d.pop("measures", UNSET)
        measures: EvaluationSummaryMeasures | Unset
        if isinstance(_measures, Unset):
            measures = UNSET
        else:
            measures = EvaluationSummaryMeasures.from_dict(_measures)

        evaluation_summary = cls(
            created_at=created_at,
            id=id,
            name=name,
            status=status,
            finished_at=finished_at,
            measures=measures,
        )

        evaluation_summary.additional_properties = d
        return evaluation_summary

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
