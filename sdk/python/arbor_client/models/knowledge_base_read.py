from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.knowledge_base_read_search_modes_item import KnowledgeBaseReadSearchModesItem

if TYPE_CHECKING:
    from ..models.embedding_config_read import EmbeddingConfigRead
    from ..models.enrichment_settings import EnrichmentSettings
    from ..models.graph_settings import GraphSettings
    from ..models.hnsw_config import HnswConfig
    from ..models.knowledge_base_read_chunking import KnowledgeBaseReadChunking


T = TypeVar("T", bound="KnowledgeBaseRead")


@_attrs_define
class KnowledgeBaseRead:
    """
    Attributes:
        chunk_count (int):
        chunking (KnowledgeBaseReadChunking):
        created_at (datetime.datetime):
        description (str):
        document_count (int):
        embedding (EmbeddingConfigRead):
        embeds_queries (bool): Whether search turns query text into a vector itself. False with provider `none`:
            `vector` and `hybrid` searches then need a `vector` in the request (a hybrid search without one runs as text and
            says so in `degraded`).
        enrichment (EnrichmentSettings): What the enricher writes onto every node of a document's tree after it is
            embedded.
        graph (GraphSettings): Whether documents feed the knowledge base's entity and relation graph, and how.
        hnsw (HnswConfig):
        id (UUID):
        name (str):
        search_modes (list[KnowledgeBaseReadSearchModesItem]): Every knowledge base supports all three (the reference's
            `supportsHybridSearch` is always true here).
        text_search_language (str):
        title (str):
        updated_at (datetime.datetime):
    """

    chunk_count: int
    chunking: KnowledgeBaseReadChunking
    created_at: datetime.datetime
    description: str
    document_count: int
    embedding: EmbeddingConfigRead
    embeds_queries: bool
    enrichment: EnrichmentSettings
    graph: GraphSettings
    hnsw: HnswConfig
    id: UUID
    name: str
    search_modes: list[KnowledgeBaseReadSearchModesItem]
    text_search_language: str
    title: str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chunk_count = self.chunk_count

        chunking = self.chunking.to_dict()

        created_at = self.created_at.isoformat()

        description = self.description

        document_count = self.document_count

        embedding = self.embedding.to_dict()

        embeds_queries = self.embeds_queries

        enrichment = self.enrichment.to_dict()

        graph = self.graph.to_dict()

        hnsw = self.hnsw.to_dict()

        id = str(self.id)

        name = self.name

        search_modes = []
        for search_modes_item_data in self.search_modes:
            search_modes_item = search_modes_item_data.value
            search_modes.append(search_modes_item)

        text_search_language = self.text_search_language

        title = self.title

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chunk_count": chunk_count,
                "chunking": chunking,
                "created_at": created_at,
                "description": description,
                "document_count": document_count,
                "embedding": embedding,
                "embeds_queries": embeds_queries,
                "enrichment": enrichment,
                "graph": graph,
                "hnsw": hnsw,
                "id": id,
                "name": name,
                "search_modes": search_modes,
                "text_search_language": text_search_language,
                "title": title,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.embedding_config_read import EmbeddingConfigRead  # noqa: PLC0415
        from ..models.enrichment_settings import EnrichmentSettings  # noqa: PLC0415
        from ..models.graph_settings import GraphSettings  # noqa: PLC0415
        from ..models.hnsw_config import HnswConfig  # noqa: PLC0415
        from ..models.knowledge_base_read_chunking import KnowledgeBaseReadChunking  # noqa: PLC0415

        d = dict(src_dict)
        chunk_count = d.pop("chunk_count")

        chunking = KnowledgeBaseReadChunking.from_dict(d.pop("chunking"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        description = d.pop("description")

        document_count = d.pop("document_count")

        embedding = EmbeddingConfigRead.from_dict(d.pop("embedding"))

        embeds_queries = d.pop("embeds_queries")

        enrichment = EnrichmentSettings.from_dict(d.pop("enrichment"))

        graph = GraphSettings.from_dict(d.pop("graph"))

        hnsw = HnswConfig.from_dict(d.pop("hnsw"))

        id = UUID(d.pop("id"))

        name = d.pop("name")

        search_modes = []
        _search_modes = d.pop("search_modes")
        for search_modes_item_data in _search_modes:
            search_modes_item = KnowledgeBaseReadSearchModesItem(search_modes_item_data)

            search_modes.append(search_modes_item)

        text_search_language = d.pop("text_search_language")

        title = d.pop("title")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        knowledge_base_read = cls(
            chunk_count=chunk_count,
            chunking=chunking,
            created_at=created_at,
            description=description,
            document_count=document_count,
            embedding=embedding,
            embeds_queries=embeds_queries,
            enrichment=enrichment,
            graph=graph,
            hnsw=hnsw,
            id=id,
            name=name,
            search_modes=search_modes,
            text_search_language=text_search_language,
            title=title,
            updated_at=updated_at,
        )

        knowledge_base_read.additional_properties = d
        return knowledge_base_read

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
