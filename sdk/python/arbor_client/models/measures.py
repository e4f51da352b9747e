from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Measures")


@_attrs_define
class Measures:
    """
    Attributes:
        mrr_at_10 (float):
        ndcg_at_10 (float):
        recall_at_10 (float):
        recall_at_100 (float):
    """

    mrr_at_10: float
    ndcg_at_10: float
    recall_at_10: float
    recall_at_100: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        mrr_at_10 = self.mrr_at_10

        ndcg_at_10 = self.ndcg_at_10

        recall_at_10 = self.recall_at_10

        recall_at_100 = self.recall_at_100

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "mrr_at_10": mrr_at_10,
                "ndcg_at_10": ndcg_at_10,
                "recall_at_10": recall_at_10,
                "recall_at_100": recall_at_100,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mrr_at_10 = d.pop("mrr_at_10")

        ndcg_at_10 = d.pop("ndcg_at_10")

        recall_at_10 = d.pop("recall_at_10")

        recall_at_100 = d.pop("recall_at_100")

        measures = cls(
            mrr_at_10=mrr_at_10,
            ndcg_at_10=ndcg_at_10,
            recall_at_10=recall_at_10,
            recall_at_100=recall_at_100,
        )

        measures.additional_properties = d
        return measures

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
