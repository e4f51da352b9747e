from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.source_run_read_status import SourceRunReadStatus
from ..models.source_run_read_trigger import SourceRunReadTrigger

if TYPE_CHECKING:
    from ..models.item_error import ItemError
    from ..models.run_counts import RunCounts


T = TypeVar("T", bound="SourceRunRead")


@_attrs_define
class SourceRunRead:
    """
    Attributes:
        counts (RunCounts):
        created_at (datetime.datetime):
        dry_run (bool):
        duration_s (float | None):
        error (None | str): Why the run failed as a whole, if it did.
        errors (list[ItemError]): Items that failed; the others went on.
        finished_at (datetime.datetime | None):
        id (UUID):
        source_id (UUID):
        started_at (datetime.datetime | None):
        status (SourceRunReadStatus):
        trigger (SourceRunReadTrigger):
    """

    counts: RunCounts
    created_at: datetime.datetime
    dry_run: bool
    duration_s: float | None
    error: None | str
    errors: list[ItemError]
    finished_at: datetime.datetime | None
    id: UUID
    source_id: UUID
    started_at: datetime.datetime | None
    status: SourceRunReadStatus
    trigger: SourceRunReadTrigger
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        counts = self.counts.to_dict()

        created_at = self.created_at.isoformat()

        dry_run = self.dry_run

        duration_s: float | None
        duration_s = self.duration_s

        error: None | str
        error = self.error

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = str(self.id)

        source_id = str(self.source_id)

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status = self.status.value

        trigger = self.trigger.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "counts": counts,
                "created_at": created_at,
                "dry_run": dry_run,
                "duration_s": duration_s,
                "error": error,
                "errors": errors,
                "finished_at": finished_at,
                "id": id,
                "source_id": source_id,
                "started_at": started_at,
                "status": status,
                "trigger": trigger,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.item_error import ItemError  # noqa: PLC0415
        from ..models.run_counts import RunCounts  # noqa: PLC0415

        d = dict(src_dict)
        counts = RunCounts.from_dict(d.pop("counts"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        dry_run = d.pop("dry_run")

        def _parse_duration_s(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        duration_s = _parse_duration_s(d.pop("duration_s"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        errors = []
        _errors = d.pop("errors")
        for errors_item_data in _errors:
            errors_item = ItemError.from_dict(errors_item_data)

            errors.append(errors_item)

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        id = UUID(d.pop("id"))

        source_id = UUID(d.pop("source_id"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        status = SourceRunReadStatus(d.pop("status"))

        trigger = SourceRunReadTrigger(d.pop("trigger"))

        source_run_read = cls(
            counts=counts,
            created_at=created_at,
            dry_run=dry_run,
            duration_s=duration_s,
            error=error,
            errors=errors,
            finished_at=finished_at,
            id=id,
            source_id=source_id,
            started_at=started_at,
            status=status,
            trigger=trigger,
        )

        source_run_read.additional_properties = d
        return source_run_read

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
