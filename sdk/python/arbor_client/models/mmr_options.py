from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MmrOptions")


@_attrs_define
class MmrOptions:
    """Maximal marginal relevance over the best `rerank_depth` hits (needs vectors).

    Attributes:
        lambda_ (float | Unset): 1 keeps the relevance order; 0 picks only for diversity. Default: 0.5.
    """

    lambda_: float | Unset = 0.5

    def to_dict(self) -> dict[str, Any]:
        lambda_ = self.lambda_

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if lambda_ is not UNSET:
            field_dict["lambda"] = lambda_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        lambda_ = d.pop("lambda", UNSET)

        mmr_options = cls(
            lambda_=lambda_,
        )

        return mmr_options
