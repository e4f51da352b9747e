"""The public contract of knowledge bases."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, HttpUrl, model_validator

from app.graph.settings import EnrichmentSettings, GraphSettings
from app.kit.schemas import RequestModel
from app.kit.strings import JsonObject, StoredText

NAME_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"
NAME_RULE = "1-64 characters of [a-z0-9_-], starting with a letter or digit; not a UUID."


def _not_an_id(name: str) -> str:
    """Paths take an id or a name, the id first: a name that reads as a UUID would reach the
    resource whose id it is, or nothing (a client deleting by that name deleted another)."""
    try:
        uuid.UUID(name)
    except ValueError:
        return name
    raise ValueError("a name cannot be a UUID: paths name resources by id or by name")


NotAnId = AfterValidator(_not_an_id)

KnowledgeBaseName = Annotated[
    str,
    Field(
        min_length=1, max_length=64, pattern=NAME_PATTERN, description=NAME_RULE, examples=["demo"]
    ),
    NotAnId,
]

DEFAULT_LOCAL_MODEL = "all-MiniLM-L6-v2"
DEFAULT_LOCAL_DIMENSIONS = 384


class EmbeddingConfig(RequestModel):
    """Which embedder a knowledge base uses; fixed once the knowledge base exists."""

    provider: Literal["local", "openai", "none"] = Field(
        default="local",
        description="`local`: the built-in offline model. `openai`: any OpenAI-compatible "
        "/v1/embeddings server. `none`: no embedder (text search only, vectors may be supplied).",
    )
    model: StoredText | None = Field(default=None, max_length=200)
    dimensions: int | None = Field(default=None, ge=1, le=16000)
    variant: Literal["int8", "fp32"] | None = Field(
        default=None, description="Local model weights; queries use the same variant."
    )
    base_url: HttpUrl | None = Field(default=None, description="OpenAI-compatible base URL.")
    api_key_env: str | None = Field(
        default=None,
        pattern=r"^[A-Z_][A-Z0-9_]*$",
        max_length=128,
        description="Name of the environment variable that holds the API key (never the key).",
    )


class EmbeddingConfigRead(BaseModel):
    provider: str
    model: str
    dimensions: int
    variant: str
    base_url: str | None = None
    api_key_env: str | None = None


class HnswConfig(RequestModel):
    m: int = Field(default=16, ge=2, le=100)
    ef_construction: int = Field(
        default=64, ge=4, le=1000, description="At least twice `m` (pgvector's rule)."
    )

    @model_validator(mode="after")
    def _ef_construction_covers_m(self) -> HnswConfig:
        # pgvector refuses the index otherwise, which surfaced as a 500 when it was built.
        if self.ef_construction < 2 * self.m:
            raise ValueError(
                f"ef_construction ({self.ef_construction}) must be at least twice m "
                f"({self.m}), i.e. >= {2 * self.m}"
            )
        return self


TextSearchLanguage = Annotated[
    str,
    Field(
        pattern=r"^[a-z_]{2,32}$",
        description="A Postgres text search configuration (`english`, `simple`, `german`, ...).",
    ),
]


class KnowledgeBaseCreate(RequestModel):
    name: KnowledgeBaseName
    title: StoredText | None = Field(default=None, max_length=200)
    description: StoredText = Field(default="", max_length=4000)
    embedding: EmbeddingConfig = Field(default_factory=EmbeddingConfig)
    chunking: JsonObject = Field(
        default_factory=dict, description="Default chunking strategy and parameters."
    )
    text_search_language: TextSearchLanguage = "english"
    hnsw: HnswConfig = Field(default_factory=HnswConfig)
    enrichment: EnrichmentSettings = Field(default_factory=EnrichmentSettings)
    graph: GraphSettings = Field(default_factory=GraphSettings)


class KnowledgeBaseUpdate(RequestModel):
    """Fields that may change; the embedding may only be restated unchanged."""

    name: KnowledgeBaseName | None = None
    title: StoredText | None = Field(default=None, max_length=200)
    description: StoredText | None = Field(default=None, max_length=4000)
    embedding: EmbeddingConfig | None = None
    chunking: JsonObject | None = None
    enrichment: EnrichmentSettings | None = Field(
        default=None,
        description="A change queues enrichment of the existing documents "
        "(`GET .../graph/status`).",
    )
    graph: GraphSettings | None = Field(
        default=None,
        description="A change queues extraction for the existing documents "
        "(`GET .../graph/status`).",
    )


class KnowledgeBaseRead(BaseModel):
    id: uuid.UUID
    name: str
    title: str
    description: str
    embedding: EmbeddingConfigRead
    chunking: dict[str, Any]
    text_search_language: str
    hnsw: HnswConfig
    search_modes: list[Literal["hybrid", "vector", "text"]] = Field(
        description="Every knowledge base supports all three (the reference's "
        "`supportsHybridSearch` is always true here)."
    )
    embeds_queries: bool = Field(
        description="Whether search turns query text into a vector itself. False with provider "
        "`none`: `vector` and `hybrid` searches then need a `vector` in the request (a hybrid "
        "search without one runs as text and says so in `degraded`)."
    )
    enrichment: EnrichmentSettings
    graph: GraphSettings
    document_count: int
    chunk_count: int
    created_at: datetime
    updated_at: datetime
