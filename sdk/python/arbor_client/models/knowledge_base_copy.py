from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.embedding_config import EmbeddingConfig
    from ..models.enrichment_settings import EnrichmentSettings
    from ..models.graph_settings import GraphSettings
    from ..models.hnsw_config import HnswConfig
    from ..models.knowledge_base_copy_chunking import KnowledgeBaseCopyChunking


T = TypeVar("T", bound="KnowledgeBaseCopy")


@_attrs_define
class KnowledgeBaseCopy:
    """The new knowledge base, as a create takes it: any embedding model, chunking, language.

    Attributes:
        name (str): 1-64 characters of [a-z0-9_-], starting with a letter or digit; not a UUID.
        chunking (KnowledgeBaseCopyChunking | Unset): Default chunking strategy and parameters.
        description (str | Unset):  Default: ''.
        embedding (EmbeddingConfig | Unset): Which embedder a knowledge base uses; fixed once the knowledge base exists.
        enrichment (EnrichmentSettings | Unset): What the enricher writes onto every node of a document's tree after it
            is embedded.
        graph (GraphSettings | Unset): Whether documents feed the knowledge base's entity and relation graph, and how.
        hnsw (HnswConfig | Unset):
        text_search_language (str | Unset): A Postgres text search configuration (`english`, `simple`, `german`, ...).
            Default: 'english'.
        title (None | str | Unset):
    """

    name: str
    chunking: KnowledgeBaseCopyChunking | Unset = UNSET
    description: str | Unset = ""
    embedding: EmbeddingConfig | Unset = UNSET
    enrichment: EnrichmentSettings | Unset = UNSET
    graph: GraphSettings | Unset = UNSET
    hnsw: HnswConfig | Unset = UNSET
    text_search_language: str | Unset = "english"
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        chunking: dict[str, Any] | Unset = UNSET
        if not isinstance(self.chunking, Unset):
            chunking = self.chunking.to_dict()

        description = self.description

        embedding: dict[str, Any] | Unset = UNSET
        if not isinstance(self.embedding, Unset):
            embedding = self.embedding.to_dict()

        enrichment: dict[str, Any] | Unset = UNSET
        if not isinstance(self.enrichment, Unset):
            enrichment = self.enrichment.to_dict()

        graph: dict[str, Any] | Unset = UNSET
        if not isinstance(self.graph, Unset):
            graph = self.graph.to_dict()

        hnsw: dict[str, Any] | Unset = UNSET
        if not isinstance(self.hnsw, Unset):
            hnsw = self.hnsw.to_dict()

        text_search_language = self.text_search_language

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
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
        if hnsw is not UNSET:
            field_dict["hnsw"] = hnsw
        if text_search_language is not UNSET:
            field_dict["text_search_language"] = text_search_language
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.embedding_config import EmbeddingConfig  # noqa: PLC0415
        from ..models.enrichment_settings import EnrichmentSettings  # noqa: PLC0415
        from ..models.graph_settings import GraphSettings  # noqa: PLC0415
        from ..models.hnsw_config import HnswConfig  # noqa: PLC0415
        from ..models.knowledge_base_copy_chunking import KnowledgeBaseCopyChunking  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        _chunking = d.pop("chunking", UNSET)
        chunking: KnowledgeBaseCopyChunking | Unset
        if isinstance(_chunking, Unset):
            chunking = UNSET
        else:
            chunking = KnowledgeBaseCopyChunking.from_dict(_chunking)

        description = d.pop("description", UNSET)

        _embedding = d.pop("embedding", UNSET)
        embedding: EmbeddingConfig | Unset
        if isinstance(_embedding, Unset):
            embedding = UNSET
        else:
            embedding = EmbeddingConfig.from_dict(_embedding)

        _enrichment = d.pop("enrichment", UNSET)
        enrichment: EnrichmentSettings | Unset
        if isinstance(_enrichment, Unset):
            enrichment = UNSET
        else:
            enrichment = EnrichmentSettings.from_dict(_enrichment)

        _graph = d.pop("graph", UNSET)
        graph: GraphSettings | Unset
        if isinstance(_graph, Unset):
            graph = UNSET
        else:
            graph = GraphSettings.from_dict(_graph)

        _hnsw = d.pop("hnsw", UNSET)
        hnsw: HnswConfig | Unset
        if isinstance(_hnsw, Unset):
            hnsw = UNSET
        else:
            hnsw = HnswConfig.from_dict(_hnsw)

        text_search_language = d.pop("text_search_language", UNSET)

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        knowledge_base_copy = cls(
            name=name,
            chunking=chunking,
            description=description,
            embedding=embedding,
            enrichment=enrichment,
            graph=graph,
            hnsw=hnsw,
            text_search_language=text_search_language,
            title=title,
        )

        return knowledge_base_copy
