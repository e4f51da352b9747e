from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.embedding_config_provider import EmbeddingConfigProvider
from ..models.embedding_config_variant_type_0 import EmbeddingConfigVariantType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="EmbeddingConfig")


@_attrs_define
class EmbeddingConfig:
    """Which embedder a knowledge base uses; fixed once the knowledge base exists.

    Attributes:
        api_key_env (None | str | Unset): Name of the environment variable that holds the API key (never the key).
        base_url (None | str | Unset): OpenAI-compatible base URL.
        dimensions (int | None | Unset):
        model (None | str | Unset):
        provider (EmbeddingConfigProvider | Unset): `local`: the built-in offline model. `openai`: any OpenAI-compatible
            /v1/embeddings server. `none`: no embedder (text search only, vectors may be supplied). Default:
            EmbeddingConfigProvider.LOCAL.
        variant (EmbeddingConfigVariantType0 | None | Unset): Local model weights; queries use the same variant.
    """

    api_key_env: None | str | Unset = UNSET
    base_url: None | str | Unset = UNSET
    dimensions: int | None | Unset = UNSET
    model: None | str | Unset = UNSET
    provider: EmbeddingConfigProvider | Unset = EmbeddingConfigProvider.LOCAL
    variant: EmbeddingConfigVariantType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
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

        dimensions: int | None | Unset
        if isinstance(self.dimensions, Unset):
            dimensions = UNSET
        else:
            dimensions = self.dimensions

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        provider: str | Unset = UNSET
        if not isinstance(self.provider, Unset):
            provider = self.provider.value

        variant: None | str | Unset
        if isinstance(self.variant, Unset):
            variant = UNSET
        elif isinstance(self.variant, EmbeddingConfigVariantType0):
            variant = self.variant.value
        else:
            variant = self.variant

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if api_key_env is not UNSET:
            field_dict["api_key_env"] = api_key_env
        if base_url is not UNSET:
            field_dict["base_url"] = base_url
        if dimensions is not UNSET:
            field_dict["dimensions"] = dimensions
        if model is not UNSET:
            field_dict["model"] = model
        if provider is not UNSET:
            field_dict["provider"] = provider
        if variant is not UNSET:
            field_dict["variant"] = variant

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

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

        def _parse_dimensions(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        dimensions = _parse_dimensions(d.pop("dimensions", UNSET))

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        _provider = d.pop("provider", UNSET)
        provider: EmbeddingConfigProvider | Unset
        if isinstance(_provider, Unset):
            provider = UNSET
        else:
            provider = EmbeddingConfigProvider(_provider)

        def _parse_variant(data: object) -> EmbeddingConfigVariantType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                variant_type_0 = EmbeddingConfigVariantType0(data)

                return variant_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EmbeddingConfigVariantType0 | None | Unset, data)

        variant = _parse_variant(d.pop("variant", UNSET))

        embedding_config = cls(
            api_key_env=api_key_env,
            base_url=base_url,
            dimensions=dimensions,
            model=model,
            provider=provider,
            variant=variant,
        )

        return embedding_config
