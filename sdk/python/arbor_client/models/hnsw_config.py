from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="HnswConfig")


@_attrs_define
class HnswConfig:
    """
    Attributes:
        ef_construction (int | Unset): At least twice `m` (pgvector's rule). Default: 64.
        m (int | Unset):  Default: 16.
    """

    ef_construction: int | Unset = 64
    m: int | Unset = 16

    def to_dict(self) -> dict[str, Any]:
        ef_construction = self.ef_construction

        m = self.m

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if ef_construction is not UNSET:
            field_dict["ef_construction"] = ef_construction
        if m is not UNSET:
            field_dict["m"] = m

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ef_construction = d.pop("ef_construction", UNSET)

        m = d.pop("m", UNSET)

        hnsw_config = cls(
            ef_construction=ef_construction,
            m=m,
        )

        return hnsw_config
