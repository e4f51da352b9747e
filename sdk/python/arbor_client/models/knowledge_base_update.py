from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.embedding_config import EmbeddingConfig
    from ..models.knowledge_base_update_chunking_type_0 import KnowledgeBaseUpdateChunkingType0


T = TypeVar("T", bound="KnowledgeBaseUpdate")


@_attrs_define
class KnowledgeBaseUpdate:
    """Fields that may change; the embedding may only be restated unchanged.

    Attributes:
        chunking (KnowledgeBaseUpdateChunkingType0 | None | Unset):
        description (None | str | Unset):
        embedding (EmbeddingConfig | None | Unset):
        name (None | str | Unset):
        title (None | str | Unset):
    """

    chunking: KnowledgeBaseUpdateChunkingType0 | None | Unset = UNSET
    description: None | str | Unset = UNSET
    embedding: EmbeddingConfig | None | Unset = UNSET
    name: None | str | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.embedding_config import EmbeddingConfig  # noqa: PLC0415
        from ..models.knowledge_base_update_chunking_type_0 import KnowledgeBaseUpdateChunkingType0  # noqa: PLC0415

        chunking: dict[str, Any] | None | Unset
        if isinstance(self.chunking, Unset):
            chunking = UNSET
        elif isinstance(self.chunking, KnowledgeBaseUpdateChunkingType0):
            chunking = self.chunking.to_dict()
        else:
            chunking = self.chunking

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        embedding: dict[str, Any] | None | Unset
        if isinstance(self.embedding, Unset):
            embedding = UNSET
        elif isinstance(self.embedding, EmbeddingConfig):
            embedding = self.embedding.to_dict()
        else:
            embedding = self.embedding

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if chunking is not UNSET:
            field_dict["chunking"] = chunking
        if description is not UNSET:
            field_dict["description"] = description
        if embedding is not UNSET:
            field_dict["embedding"] = embedding
        if name is not UNSET:
            field_dict["name"] = name
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.embedding_config import EmbeddingConfig  # noqa: PLC0415
        from ..models.knowledge_base_update_chunking_type_0 import KnowledgeBaseUpdateChunkingType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_chunking(data: object) -> KnowledgeBaseUpdateChunkingType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                chunking_type_0 = KnowledgeBaseUpdateChunkingType0.from_dict(data)

                return chunking_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(KnowledgeBaseUpdateChunkingType0 | None | Unset, data)

        chunking = _parse_chunking(d.pop("chunking", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_embedding(data: object) -> EmbeddingConfig | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                embedding_type_0 = EmbeddingConfig.from_dict(data)

                return embedding_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EmbeddingConfig | None | Unset, data)

        embedding = _parse_embedding(d.pop("embedding", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        knowledge_base_update = cls(
            chunking=chunking,
            description=description,
            embedding=embedding,
            name=name,
            title=title,
        )

        return knowledge_base_update
