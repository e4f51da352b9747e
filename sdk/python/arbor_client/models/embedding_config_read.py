from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="EmbeddingConfigRead")


@_attrs_define
class EmbeddingConfigRead:
    """
    Attributes:
        dimensions (int):
        model (str):
        provider (str):
        variant (str):
        api_key_env (None | str | Unset):
        base_url (None | str | Unset):
    """

    dimensions: int
    model: str
    provider: str
    variant: str
    api_key_env: None | str | Unset = UNSET
    base_url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dimensions = self.dimensions

        model = self.model

        provider = self.provider

        variant = self.variant

        api_key_env: None | str | Unset
        if isinstance(self.api_key_env, Unset):
            api_key_env = UNSET
        else:
            api_key_env = self.api_key_env

        base_url: None | str | Unset
        if isinstance(self.base_url, Unset):
            base_url = UNSET
        else:
            base_url = self.base_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dimensions": dimensions,
                "model": model,
                "provider": provider,
                "variant": variant,
            }
        )
        if api_key_env is not UNSET:
            field_dict["api_key_env"] = api_key_env
        if base_url is not UNSET:
            field_dict["base_url"] = base_url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dimensions = d.pop("dimensions")

        model = d.pop("model")

        provider = d.pop("provider")

        variant = d.pop("variant")

        def _parse_api_key_env(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        api_key_env = _parse_api_key_env(d.pop("api_key_env", UNSET))

        def _parse_base_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        base_url = _parse_base_url(d.pop("base_url", UNSET))

        embedding_config_read = cls(
            dimensions=dimensions,
            model=model,
            provider=provider,
            variant=variant,
            api_key_env=api_key_env,
            base_url=base_url,
        )

        embedding_config_read.additional_properties = d
        return embedding_config_read

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
