from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="DocumentAccess")


@_attrs_define
class DocumentAccess:
    """Who may read a document.

    Attributes:
        principals (list[str]): Callers holding any of these principals may read the document; an empty list leaves it
            to admins. A set: stored sorted, without repeats.
    """

    principals: list[str]

    def to_dict(self) -> dict[str, Any]:
        principals = self.principals

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "principals": principals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        principals = cast(list[str], d.pop("principals"))

        document_access = cls(
            principals=principals,
        )

        return document_access
