from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.dify_metadata_condition_logical_operator import DifyMetadataConditionLogicalOperator
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dify_condition import DifyCondition


T = TypeVar("T", bound="DifyMetadataCondition")


@_attrs_define
class DifyMetadataCondition:
    """
    Attributes:
        conditions (list[DifyCondition]):
        logical_operator (DifyMetadataConditionLogicalOperator | Unset):  Default:
            DifyMetadataConditionLogicalOperator.AND.
    """

    conditions: list[DifyCondition]
    logical_operator: DifyMetadataConditionLogicalOperator | Unset = DifyMetadataConditionLogicalOperator.AND

    def to_dict(self) -> dict[str, Any]:
        conditions = []
        for conditions_item_data in self.conditions:
            conditions_item = conditions_item_data.to_dict()
            conditions.append(conditions_item)

        logical_operator: str | Unset = UNSET
        if not isinstance(self.logical_operator, Unset):
            logical_operator = self.logical_operator.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "conditions": conditions,
            }
        )
        if logical_operator is not UNSET:
            field_dict["logical_operator"] = logical_operator

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dify_condition import DifyCondition  # noqa: PLC0415

        d = dict(src_dict)
        conditions = []
        _conditions = d.pop("conditions")
        for conditions_item_data in _conditions:
            conditions_item = DifyCondition.from_dict(conditions_item_data)

            conditions.append(conditions_item)

        _logical_operator = d.pop("logical_operator", UNSET)
        logical_operator: DifyMetadataConditionLogicalOperator | Unset
        if isinstance(_logical_operator, Unset):
            logical_operator = UNSET
        else:
            logical_operator = DifyMetadataConditionLogicalOperator(_logical_operator)

        dify_metadata_condition = cls(
            conditions=conditions,
            logical_operator=logical_operator,
        )

        return dify_metadata_condition
