from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Crawl")


@_attrs_define
class Crawl:
    """
    Attributes:
        depth (int | Unset): Links followed from the URLs. Default: 1.
        max_pages (int | Unset):  Default: 100.
    """

    depth: int | Unset = 1
    max_pages: int | Unset = 100

    def to_dict(self) -> dict[str, Any]:
        depth = self.depth

        max_pages = self.max_pages

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if depth is not UNSET:
            field_dict["depth"] = depth
        if max_pages is not UNSET:
            field_dict["max_pages"] = max_pages

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        depth = d.pop("depth", UNSET)

        max_pages = d.pop("max_pages", UNSET)

        crawl = cls(
            depth=depth,
            max_pages=max_pages,
        )

        return crawl
