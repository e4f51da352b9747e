from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_read_type import EventReadType

if TYPE_CHECKING:
    from ..models.event_read_data import EventReadData


T = TypeVar("T", bound="EventRead")


@_attrs_define
class EventRead:
    """
    Attributes:
        created_at (datetime.datetime):
        data (EventReadData): The subject when it happened: for documents `id`, `external_id`, `title`, `source_uri`,
            `status`, `error`, `chunk_count`, `embedded_count`, `format`, `metadata`; `replaced` (document.ready: the
            version it replaced), `changed` (document.updated: the fields a PATCH changed) and `reason` (document.deleted:
            `deleted`, `replaced` or `superseded`); for knowledge bases `id`, `name`, `title`; for sources (`source.synced`,
            `source.failed`) `id`, `name`, `kind`, `run_id`, `counts`, `error`.
        id (int): Unique per event; events are ordered by the feed, not by id.
        knowledge_base_id (UUID):
        subject_id (UUID): The knowledge base or document it is about.
        type_ (EventReadType):
    """

    created_at: datetime.datetime
    data: EventReadData
    id: int
    knowledge_base_id: UUID
    subject_id: UUID
    type_: EventReadType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        id = self.id

        knowledge_base_id = str(self.knowledge_base_id)

        subject_id = str(self.subject_id)

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "data": data,
                "id": id,
                "knowledge_base_id": knowledge_base_id,
                "subject_id": subject_id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_read_data import EventReadData  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        data = EventReadData.from_dict(d.pop("data"))

        id = d.pop("id")

        knowledge_base_id = UUID(d.pop("knowledge_base_id"))

        subject_id = UUID(d.pop("subject_id"))

        type_ = EventReadType(d.pop("type"))

        event_read = cls(
            created_at=created_at,
            data=data,
            id=id,
            knowledge_base_id=knowledge_base_id,
            subject_id=subject_id,
            type_=type_,
        )

        event_read.additional_properties = d
        return event_read

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
