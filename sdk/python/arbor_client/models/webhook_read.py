from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_read_types_type_0_item import WebhookReadTypesType0Item

T = TypeVar("T", bound="WebhookRead")


@_attrs_define
class WebhookRead:
    """
    Attributes:
        active (bool): false when paused, or turned off after failing for `ARBOR_WEBHOOK_DISABLE_AFTER_H` hours.
        attempts (int): Failed attempts in a row at the next event.
        created_at (datetime.datetime):
        cursor (str): Its place in the event feed: `GET /v1/events?after=<cursor>` lists what it has not delivered yet
            (and events its filters skip).
        delivered_at (datetime.datetime | None): When the last event was delivered.
        description (str):
        failing_since (datetime.datetime | None): The first failure of the current run.
        id (UUID):
        knowledge_base_id (None | UUID):
        last_error (None | str): Why the last attempt failed; null after a 2xx.
        last_event_id (int | None): The last event delivered.
        last_status (int | None): The HTTP status of the last attempt; null when none was received.
        next_attempt_at (datetime.datetime): When the dispatcher next looks at it (a retry waits 2**attempts times the
            retry period, at most an hour).
        types (list[WebhookReadTypesType0Item] | None): Only events of these types; null (the default) for every type.
        updated_at (datetime.datetime):
        url (str):
    """

    active: bool
    attempts: int
    created_at: datetime.datetime
    cursor: str
    delivered_at: datetime.datetime | None
    description: str
    failing_since: datetime.datetime | None
    id: UUID
    knowledge_base_id: None | UUID
    last_error: None | str
    last_event_id: int | None
    last_status: int | None
    next_attempt_at: datetime.datetime
    types: list[WebhookReadTypesType0Item] | None
    updated_at: datetime.datetime
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        active = self.active

        attempts = self.attempts

        created_at = self.created_at.isoformat()

        cursor = self.cursor

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        description = self.description

        failing_since: None | str
        if isinstance(self.failing_since, datetime.datetime):
            failing_since = self.failing_since.isoformat()
        else:
            failing_since = self.failing_since

        id = str(self.id)

        knowledge_base_id: None | str
        if isinstance(self.knowledge_base_id, UUID):
            knowledge_base_id = str(self.knowledge_base_id)
        else:
            knowledge_base_id = self.knowledge_base_id

        last_error: None | str
        last_error = self.last_error

        last_event_id: int | None
        last_event_id = self.last_event_id

        last_status: int | None
        last_status = self.last_status

        next_attempt_at = self.next_attempt_at.isoformat()

        types: list[str] | None
        if isinstance(self.types, list):
            types = []
            for types_type_0_item_data in self.types:
                types_type_0_item = types_type_0_item_data.value
                types.append(types_type_0_item)

        else:
            types = self.types

        updated_at = self.updated_at.isoformat()

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active": active,
                "attempts": attempts,
                "created_at": created_at,
                "cursor": cursor,
                "delivered_at": delivered_at,
                "description": description,
                "failing_since": failing_since,
                "id": id,
                "knowledge_base_id": knowledge_base_id,
                "last_error": last_error,
                "last_event_id": last_event_id,
                "last_status": last_status,
                "next_attempt_at": next_attempt_at,
                "types": types,
                "updated_at": updated_at,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        active = d.pop("active")

        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        cursor = d.pop("cursor")

        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at"))

        description = d.pop("description")

        def _parse_failing_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failing_since_type_0 = datetime.datetime.fromisoformat(data)

                return failing_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        failing_since = _parse_failing_since(d.pop("failing_since"))

        id = UUID(d.pop("id"))

        def _parse_knowledge_base_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                knowledge_base_id_type_0 = UUID(data)

                return knowledge_base_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        knowledge_base_id = _parse_knowledge_base_id(d.pop("knowledge_base_id"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        def _parse_last_event_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_event_id = _parse_last_event_id(d.pop("last_event_id"))

        def _parse_last_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status = _parse_last_status(d.pop("last_status"))

        next_attempt_at = datetime.datetime.fromisoformat(d.pop("next_attempt_at"))

        def _parse_types(data: object) -> list[WebhookReadTypesType0Item] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                types_type_0 = []
                _types_type_0 = data
                for types_type_0_item_data in _types_type_0:
                    types_type_0_item = WebhookReadTypesType0Item(types_type_0_item_data)

                    types_type_0.append(types_type_0_item)

                return types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[WebhookReadTypesType0Item] | None, data)

        types = _parse_types(d.pop("types"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        url = d.pop("url")

        webhook_read = cls(
            active=active,
            attempts=attempts,
            created_at=created_at,
            cursor=cursor,
            delivered_at=delivered_at,
            description=description,
            failing_since=failing_since,
            id=id,
            knowledge_base_id=knowledge_base_id,
            last_error=last_error,
            last_event_id=last_event_id,
            last_status=last_status,
            next_attempt_at=next_attempt_at,
            types=types,
            updated_at=updated_at,
            url=url,
        )

        webhook_read.additional_properties = d
        return webhook_read

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
