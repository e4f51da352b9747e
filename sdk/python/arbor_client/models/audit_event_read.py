from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.audit_event_read_details_type_0 import AuditEventReadDetailsType0
    from ..models.audit_event_read_target import AuditEventReadTarget


T = TypeVar("T", bound="AuditEventRead")


@_attrs_define
class AuditEventRead:
    """
    Attributes:
        actor (str): The API key's name, `ARBOR_ADMIN_KEY` or `anonymous`.
        api_key_id (None | UUID):
        created_at (datetime.datetime):
        hits (int | None): Search hits returned (searches only).
        id (UUID):
        method (str):
        operation (str): The operation id, e.g. `search-knowledge_base`.
        path (str):
        status (int):
        target (AuditEventReadTarget): The path parameters, as the caller gave them.
        details (AuditEventReadDetailsType0 | None | Unset): What the operation put on record: for answers the question,
            the sources given to the generator and the generator.
    """

    actor: str
    api_key_id: None | UUID
    created_at: datetime.datetime
    hits: int | None
    id: UUID
    method: str
    operation: str
    path: str
    status: int
    target: AuditEventReadTarget
    details: AuditEventReadDetailsType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_event_read_details_type_0 import AuditEventReadDetailsType0  # noqa: PLC0415

        actor = self.actor

        api_key_id: None | str
        if isinstance(self.api_key_id, UUID):
            api_key_id = str(self.api_key_id)
        else:
            api_key_id = self.api_key_id

        created_at = self.created_at.isoformat()

        hits: int | None
        hits = self.hits

        id = str(self.id)

        method = self.method

        operation = self.operation

        path = self.path

        status = self.status

        target = self.target.to_dict()

        details: dict[str, Any] | None | Unset
        if isinstance(self.details, Unset):
            details = UNSET
        elif isinstance(self.details, AuditEventReadDetailsType0):
            details = self.details.to_dict()
        else:
            details = self.details

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actor": actor,
                "api_key_id": api_key_id,
                "created_at": created_at,
                "hits": hits,
                "id": id,
                "method": method,
                "operation": operation,
                "path": path,
                "status": status,
                "target": target,
            }
        )
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_event_read_details_type_0 import AuditEventReadDetailsType0  # noqa: PLC0415
        from ..models.audit_event_read_target import AuditEventReadTarget  # noqa: PLC0415

        d = dict(src_dict)
        actor = d.pop("actor")

        def _parse_api_key_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                api_key_id_type_0 = UUID(data)

                return api_key_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        api_key_id = _parse_api_key_id(d.pop("api_key_id"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_hits(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        hits = _parse_hits(d.pop("hits"))

        id = UUID(d.pop("id"))

        method = d.pop("method")

        operation = d.pop("operation")

        path = d.pop("path")

        status = d.pop("status")

        target = AuditEventReadTarget.from_dict(d.pop("target"))

        def _parse_details(data: object) -> AuditEventReadDetailsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = AuditEventReadDetailsType0.from_dict(data)

                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuditEventReadDetailsType0 | None | Unset, data)

        details = _parse_details(d.pop("details", UNSET))

        audit_event_read = cls(
            actor=actor,
            api_key_id=api_key_id,
            created_at=created_at,
            hits=hits,
            id=id,
            method=method,
            operation=operation,
            path=path,
            status=status,
            target=target,
            details=details,
        )

        audit_event_read.additional_properties = d
        return audit_event_read

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
