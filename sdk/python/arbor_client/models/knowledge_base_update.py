from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.embedding_config import EmbeddingConfig
    from ..models.enrichment_settings import EnrichmentSettings
    from ..models.graph_settings import GraphSettings
    from ..models.knowledge_base_update_chunking_type_0 import KnowledgeBaseUpdateChunkingType0


T = TypeVar("T", bound="KnowledgeBaseUpdate")


@_attrs_define
class KnowledgeBaseUpdate:
    """Fields that may change; the embedding may only be restated unchanged.

    Attributes:
        chunking (KnowledgeBaseUpdateChunkingType0 | None | Unset):
        description (None | str | Unset):
        embedding (EmbeddingConfig | None | Unset):
        enrichment (EnrichmentSettings | None | Unset): A change queues enrichment of the existing documents (`GET
            .../graph/status`).
        graph (GraphSettings | None | Unset): A change queues extraction for the existing documents (`GET
            .../graph/status`).
        name (None | str | Unset):
        title (None | str | Unset):
    """

    chunking: KnowledgeBaseUpdateChunkingType0 | None | Unset = UNSET
    description: None | str | Unset = UNSET
    embedding: EmbeddingConfig | None | Unset = UNSET
    enrichment: EnrichmentSettings | None | Unset = UNSET
    graph: GraphSettings | None | Unset = UNSET
    name: None | str | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.embedding_config import EmbeddingConfig  # noqa: PLC0415
        from ..models.enrichment_settings import EnrichmentSettings  # noqa: PLC0415
        from ..models.graph_settings import GraphSettings  # noqa: PLC0415
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

        enrichment: dict[str, Any] | None | Unset
        if isinstance(self.enrichment, Unset):
            enrichment = UNSET
        elif isinstance(self.enrichment, EnrichmentSettings):
            enrichment = self.enrichment.to_dict()
        else:
            enrichment = self.enrichment

        graph: dict[str, Any] | None | Unset
        if isinstance(self.graph, Unset):
            graph = UNSET
        elif isinstance(self.graph, GraphSettings):
            graph = self.graph.to_dict()
        else:
            graph = self.graph

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
        if enrichment is not UNSET:
            field_dict["enrichment"] = enrichment
        if graph is not UNSET:
            field_dict["graph"] = graph
        if name is not UNSET:
            field_dict["name"] = name
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.embedding_config import EmbeddingConfig  # noqa: PLC0415
        from ..models.enrichment_settings import EnrichmentSettings  # noqa: PLC0415
        from ..models.graph_settings import GraphSettings  # noqa: PLC0415
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

        def _parse_enrichment(data: object) -> EnrichmentSettings | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                enrichment_type_0 = EnrichmentSettings.from_dict(data)

                return enrichment_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EnrichmentSettings | None | Unset, data)

        enrichment = _parse_enrichment(d.pop("enrichment", UNSET))

        def _parse_graph(data: object) -> GraphSettings | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                graph_type_0 = GraphSettings.from_dict(data)

                return graph_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GraphSettings | None | Unset, data)

        graph = _parse_graph(d.pop("graph", UNSET))

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
            enrichment=enrichment,
            graph=graph,
            name=name,
            title=title,
        )

        return knowledge_base_update
