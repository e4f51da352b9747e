from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.api_key_created_status import ApiKeyCreatedStatus
from ..models.scope import Scope

T = TypeVar("T", bound="ApiKeyCreated")


@_attrs_define
class ApiKeyCreated:
    """
    Attributes:
        created_at (datetime.datetime):
        created_by (str):
        delegate (bool):
        expires_at (datetime.datetime | None):
        id (UUID):
        key (str): The key itself. Shown only in this response; store it now.
        knowledge_bases (list[UUID] | None):
        name (str):
        prefix (str): The key's first characters, to recognise it.
        principals (list[str]):
        project_id (UUID):
        revoked_at (datetime.datetime | None):
        scopes (list[Scope]):
        status (ApiKeyCreatedStatus):
    """

    created_at: datetime.datetime
    created_by: str
    delegate: bool
    expires_at: datetime.datetime | None
    id: UUID
    key: str
    knowledge_bases: list[UUID] | None
    name: str
    prefix: str
    principals: list[str]
    project_id: UUID
    revoked_at: datetime.datetime | None
    scopes: list[Scope]
    status: ApiKeyCreatedStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        created_by = self.created_by

        delegate = self.delegate

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        id = str(self.id)

        key = self.key

        knowledge_bases: list[str] | None
        if isinstance(self.knowledge_bases, list):
            knowledge_bases = []
            for knowledge_bases_type_0_item_data in self.knowledge_bases:
                knowledge_bases_type_0_item = str(knowledge_bases_type_0_item_data)
                knowledge_bases.append(knowledge_bases_type_0_item)

        else:
            knowledge_bases = self.knowledge_bases

        name = self.name

        prefix = self.prefix

        principals = self.principals

        project_id = str(self.project_id)

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "created_by": created_by,
                "delegate": delegate,
                "expires_at": expires_at,
                "id": id,
                "key": key,
                "knowledge_bases": knowledge_bases,
                "name": name,
                "prefix": prefix,
                "principals": principals,
                "project_id": project_id,
                "revoked_at": revoked_at,
                "scopes": scopes,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        created_by = d.pop("created_by")

        delegate = d.pop("delegate")

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))

        id = UUID(d.pop("id"))

        key = d.pop("key")

        def _parse_knowledge_bases(data: object) -> list[UUID] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                knowledge_bases_type_0 = []
                _knowledge_bases_type_0 = data
                for knowledge_bases_type_0_item_data in _knowledge_bases_type_0:
                    knowledge_bases_type_0_item = UUID(knowledge_bases_type_0_item_data)

                    knowledge_bases_type_0.append(knowledge_bases_type_0_item)

                return knowledge_bases_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UUID] | None, data)

        knowledge_bases = _parse_knowledge_bases(d.pop("knowledge_bases"))

        name = d.pop("name")

        prefix = d.pop("prefix")

        principals = cast(list[str], d.pop("principals"))

        project_id = UUID(d.pop("project_id"))

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = Scope(scopes_item_data)

            scopes.append(scopes_item)

        status = ApiKeyCreatedStatus(d.pop("status"))

        api_key_created = cls(
            created_at=created_at,
            created_by=created_by,
            delegate=delegate,
            expires_at=expires_at,
            id=id,
            key=key,
            knowledge_bases=knowledge_bases,
            name=name,
            prefix=prefix,
            principals=principals,
            project_id=project_id,
            revoked_at=revoked_at,
            scopes=scopes,
            status=status,
        )

        api_key_created.additional_properties = d
        return api_key_created

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
