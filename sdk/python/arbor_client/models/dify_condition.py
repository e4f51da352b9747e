from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.dify_condition_comparison_operator import DifyConditionComparisonOperator
from ..types import UNSET, Unset

T = TypeVar("T", bound="DifyCondition")


@_attrs_define
class DifyCondition:
    """
    Attributes:
        comparison_operator (DifyConditionComparisonOperator):
        name (list[str] | str): Metadata field name(s).
        value (float | list[str] | None | str | Unset): Omitted for `empty` and `not empty`.
    """

    comparison_operator: DifyConditionComparisonOperator
    name: list[str] | str
    value: float | list[str] | None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        comparison_operator = self.comparison_operator.value

        name: list[str] | str
        if isinstance(self.name, list):
            name = self.name

        else:
            name = self.name

        value: float | list[str] | None | str | Unset
        if isinstance(self.value, Unset):
            value = UNSET
        elif isinstance(self.value, list):
            value = self.value

        else:
            value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "comparison_operator": comparison_operator,
                "name": name,
            }
        )
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        comparison_operator = DifyConditionComparisonOperator(d.pop("comparison_operator"))

        def _parse_name(data: object) -> list[str] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                name_type_0 = cast(list[str], data)

                return name_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | str, data)

        name = _parse_name(d.pop("name"))

        def _parse_value(data: object) -> float | list[str] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                value_type_2 = cast(list[str], data)

                return value_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(float | list[str] | None | str | Unset, data)

        value = _parse_value(d.pop("value", UNSET))

        dify_condition = cls(
            comparison_operator=comparison_operator,
            name=name,
            value=value,
        )

        return dify_condition
