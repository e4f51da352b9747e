from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DifyRetrievalSetting")


@_attrs_define
class DifyRetrievalSetting:
    """
    Attributes:
        top_k (int): Maximum number of records.
        score_threshold (float | Unset): Minimum score (0-1); 0.0 when Dify's score threshold is off. Default: 0.0.
    """

    top_k: int
    score_threshold: float | Unset = 0.0

    def to_dict(self) -> dict[str, Any]:
        top_k = self.top_k

        score_threshold = self.score_threshold

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "top_k": top_k,
            }
        )
        if score_threshold is not UNSET:
            field_dict["score_threshold"] = score_threshold

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        top_k = d.pop("top_k")

        score_threshold = d.pop("score_threshold", UNSET)

        dify_retrieval_setting = cls(
            top_k=top_k,
            score_threshold=score_threshold,
        )

        return dify_retrieval_setting
