from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.scope import Scope
from ..types import UNSET, Unset

T = TypeVar("T", bound="ApiKeyCreate")


@_attrs_define
class ApiKeyCreate:
    """
    Attributes:
        name (str):
        scopes (list[Scope]): `read`: list, get and search. `write`: also upload, update and delete. `admin`: also
            manage the project's keys (in project `default`: every project).
        delegate (bool | Unset): May set `X-Arbor-Principals` to read as another user (gateways). Default: False.
        expires_at (datetime.datetime | None | Unset): When the key stops working.
        knowledge_bases (list[str] | None | Unset): Limit the key to these knowledge bases (ids or names); others answer
            404.
        principals (list[str] | Unset): Whom the key reads documents as: documents with an `access` list are visible
            when it names one of these. Admin keys read every document.
    """

    name: str
    scopes: list[Scope]
    delegate: bool | Unset = False
    expires_at: datetime.datetime | None | Unset = UNSET
    knowledge_bases: list[str] | None | Unset = UNSET
    principals: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)

        delegate = self.delegate

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        knowledge_bases: list[str] | None | Unset
        if isinstance(self.knowledge_bases, Unset):
            knowledge_bases = UNSET
        elif isinstance(self.knowledge_bases, list):
            knowledge_bases = self.knowledge_bases

        else:
            knowledge_bases = self.knowledge_bases

        principals: list[str] | Unset = UNSET
        if not isinstance(self.principals, Unset):
            principals = self.principals

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "scopes": scopes,
            }
        )
        if delegate is not UNSET:
            field_dict["delegate"] = delegate
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if knowledge_bases is not UNSET:
            field_dict["knowledge_bases"] = knowledge_bases
        if principals is not UNSET:
            field_dict["principals"] = principals

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = Scope(scopes_item_data)

            scopes.append(scopes_item)

        delegate = d.pop("delegate", UNSET)

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))

        def _parse_knowledge_bases(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                knowledge_bases_type_0 = cast(list[str], data)

                return knowledge_bases_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        knowledge_bases = _parse_knowledge_bases(d.pop("knowledge_bases", UNSET))

        principals = cast(list[str], d.pop("principals", UNSET))

        api_key_create = cls(
            name=name,
            scopes=scopes,
            delegate=delegate,
            expires_at=expires_at,
            knowledge_bases=knowledge_bases,
            principals=principals,
        )

        return api_key_create
