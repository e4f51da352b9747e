from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.function_definition_parameters import FunctionDefinitionParameters


T = TypeVar("T", bound="FunctionDefinition")


@_attrs_define
class FunctionDefinition:
    """
    Attributes:
        description (str):
        name (str):
        parameters (FunctionDefinitionParameters): JSON Schema of the arguments.
    """

    description: str
    name: str
    parameters: FunctionDefinitionParameters
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        name = self.name

        parameters = self.parameters.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "description": description,
                "name": name,
                "parameters": parameters,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.function_definition_parameters import FunctionDefinitionParameters  # noqa: PLC0415

        d = dict(src_dict)
        description = d.pop("description")

        name = d.pop("name")

        parameters = FunctionDefinitionParameters.from_dict(d.pop("parameters"))

        function_definition = cls(
            description=description,
            name=name,
            parameters=parameters,
        )

        function_definition.additional_properties = d
        return function_definition

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
