from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_read_status import JobReadStatus

T = TypeVar("T", bound="JobRead")


@_attrs_define
class JobRead:
    """
    Attributes:
        attempts (int):
        created_at (datetime.datetime):
        document_id (None | UUID):
        finished_at (datetime.datetime | None):
        id (UUID):
        kind (str):
        last_error (None | str):
        max_attempts (int):
        run_after (datetime.datetime):
        status (JobReadStatus):
    """

    attempts: int
    created_at: datetime.datetime
    document_id: None | UUID
    finished_at: datetime.datetime | None
    id: UUID
    kind: str
    last_error: None | str
    max_attempts: int
    run_after: datetime.datetime
    status: JobReadStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        created_at = self.created_at.isoformat()

        document_id: None | str
        if isinstance(self.document_id, UUID):
            document_id = str(self.document_id)
        else:
            document_id = self.document_id

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = str(self.id)

        kind = self.kind

        last_error: None | str
        last_error = self.last_error

        max_attempts = self.max_attempts

        run_after = self.run_after.isoformat()

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "created_at": created_at,
                "document_id": document_id,
                "finished_at": finished_at,
                "id": id,
                "kind": kind,
                "last_error": last_error,
                "max_attempts": max_attempts,
                "run_after": run_after,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_document_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                document_id_type_0 = UUID(data)

                return document_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        document_id = _parse_document_id(d.pop("document_id"))

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

        kind = d.pop("kind")

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        max_attempts = d.pop("max_attempts")

        run_after = datetime.datetime.fromisoformat(d.pop("run_after"))

        status = JobReadStatus(d.pop("status"))

        job_read = cls(
            attempts=attempts,
            created_at=created_at,
            document_id=document_id,
            finished_at=finished_at,
            id=id,
            kind=kind,
            last_error=last_error,
            max_attempts=max_attempts,
            run_after=run_after,
            status=status,
        )

        job_read.additional_properties = d
        return job_read

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
