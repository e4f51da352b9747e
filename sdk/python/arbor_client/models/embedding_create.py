from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.embedding_create_input import EmbeddingCreateInput
from ..types import UNSET, Unset

T = TypeVar("T", bound="EmbeddingCreate")


@_attrs_define
class EmbeddingCreate:
    """Texts to turn into vectors with the knowledge base's own embedding model.

    Attributes:
        texts (list[str]): 1 to 128 non-empty texts of at most 20,000 characters each. A text longer than the model's
            token window is truncated as the model truncates it when it embeds chunks and queries: the built-in model reads
            the first 256 tokens (special tokens included) and ignores the rest; an API model's server decides (OpenAI
            refuses texts over 8,191 tokens, answered as a 503).
        input_ (EmbeddingCreateInput | Unset): `document`: as chunks are embedded at ingestion (`embed_documents`);
            `query`: as search embeds a query (`embed_query`), for `vector` searches. Default:
            EmbeddingCreateInput.DOCUMENT.
    """

    texts: list[str]
    input_: EmbeddingCreateInput | Unset = EmbeddingCreateInput.DOCUMENT

    def to_dict(self) -> dict[str, Any]:
        texts = self.texts

        input_: str | Unset = UNSET
        if not isinstance(self.input_, Unset):
            input_ = self.input_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "texts": texts,
            }
        )
        if input_ is not UNSET:
            field_dict["input"] = input_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        texts = cast(list[str], d.pop("texts"))

        _input_ = d.pop("input", UNSET)
        input_: EmbeddingCreateInput | Unset
        if isinstance(_input_, Unset):
            input_ = UNSET
        else:
            input_ = EmbeddingCreateInput(_input_)

        embedding_create = cls(
            texts=texts,
            input_=input_,
        )

        return embedding_create
