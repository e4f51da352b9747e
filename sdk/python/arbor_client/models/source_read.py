from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.source_read_kind import SourceReadKind

if TYPE_CHECKING:
    from ..models.schedule_read import ScheduleRead
    from ..models.source_read_access_type_0 import SourceReadAccessType0
    from ..models.source_read_config import SourceReadConfig
    from ..models.source_read_metadata import SourceReadMetadata


T = TypeVar("T", bound="SourceRead")


@_attrs_define
class SourceRead:
    """
    Attributes:
        access (None | SourceReadAccessType0):
        config (SourceReadConfig): The kind's fields (`path`, `urls` ...).
        created_at (datetime.datetime):
        id (UUID):
        kind (SourceReadKind):
        knowledge_base_id (UUID):
        metadata (SourceReadMetadata):
        name (str):
        schedule (None | ScheduleRead):
        updated_at (datetime.datetime):
    """

    access: None | SourceReadAccessType0
    config: SourceReadConfig
    created_at: datetime.datetime
    id: UUID
    kind: SourceReadKind
    knowledge_base_id: UUID
    metadata: SourceReadMetadata
    name: str
    schedule: None | ScheduleRead
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.schedule_read import ScheduleRead  # noqa: PLC0415
        from ..models.source_read_access_type_0 import SourceReadAccessType0  # noqa: PLC0415

        access: dict[str, Any] | None
        if isinstance(self.access, SourceReadAccessType0):
            access = self.access.to_dict()
        else:
            access = self.access

        config = self.config.to_dict()

        created_at = self.created_at.isoformat()

        id = str(self.id)

        kind = self.kind.value

        knowledge_base_id = str(self.knowledge_base_id)

        metadata = self.metadata.to_dict()

        name = self.name

        schedule: dict[str, Any] | None
        if isinstance(self.schedule, ScheduleRead):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "access": access,
                "config": config,
                "created_at": created_at,
                "id": id,
                "kind": kind,
                "knowledge_base_id": knowledge_base_id,
                "metadata": metadata,
                "name": name,
                "schedule": schedule,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.schedule_read import ScheduleRead  # noqa: PLC0415
        from ..models.source_read_access_type_0 import SourceReadAccessType0  # noqa: PLC0415
        from ..models.source_read_config import SourceReadConfig  # noqa: PLC0415
        from ..models.source_read_metadata import SourceReadMetadata  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_access(data: object) -> None | SourceReadAccessType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                access_type_0 = SourceReadAccessType0.from_dict(data)

                return access_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SourceReadAccessType0, data)

        access = _parse_access(d.pop("access"))

        config = SourceReadConfig.from_dict(d.pop("config"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = UUID(d.pop("id"))

        kind = SourceReadKind(d.pop("kind"))

        knowledge_base_id = UUID(d.pop("knowledge_base_id"))

        metadata = SourceReadMetadata.from_dict(d.pop("metadata"))

        name = d.pop("name")

        def _parse_schedule(data: object) -> None | ScheduleRead:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = ScheduleRead.from_dict(data)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScheduleRead, data)

        schedule = _parse_schedule(d.pop("schedule"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        source_read = cls(
            access=access,
            config=config,
            created_at=created_at,
            id=id,
            kind=kind,
            knowledge_base_id=knowledge_base_id,
            metadata=metadata,
            name=name,
            schedule=schedule,
            updated_at=updated_at,
        )

        source_read.additional_properties = d
        return source_read

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
