"""The public contract of the knowledge graph."""

from __future__ import annotations

import uuid
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.graph.settings import EnrichmentSettings, GraphSettings
from app.kit.schemas import RequestModel
from app.kit.strings import StoredText


class EntityRead(BaseModel):
    id: uuid.UUID
    name: str
    type: str = Field(
        description="`PERSON`, `ORG`, `GPE` ... from the extractor; `CONCEPT` for noun phrases."
    )
    key: str = Field(description="The normalised name entities are merged by.")
    summary: str | None = Field(
        description="What the first document you may read says of it (the sentence, or the "
        "LLM's description)."
    )


class Mention(BaseModel):
    document_id: uuid.UUID
    chunk_id: uuid.UUID
    surface: str = Field(description="The name as the chunk writes it.")
    description: str


class RelationRead(BaseModel):
    id: uuid.UUID
    source_id: uuid.UUID
    source_name: str
    target_id: uuid.UUID
    target_name: str
    type: str
    fact: str
    chunks: list[uuid.UUID] = Field(description="Chunks you may read that state the fact.")


class EntityDetail(EntityRead):
    mentions: list[Mention] = Field(description="Provenance: up to 100 readable mentions.")
    relations: list[RelationRead] = Field(description="Up to 100 readable relations.")


class GraphSearchRequest(RequestModel):
    query: StoredText = Field(min_length=1, max_length=2000)
    mode: Literal["standard", "quick"] = Field(
        default="standard",
        description="`standard`: query entities, pattern and trigram matches, vector fallback. "
        "`quick`: vector search, then growth along relations.",
    )
    max_growth_levels: int = Field(default=3, ge=0, le=10, description="Quick mode only.")
    search_limit: int = Field(default=50, ge=1, le=500, description="Quick mode only.")


class GraphNode(BaseModel):
    id: uuid.UUID
    name: str
    type: str
    summary: str | None
    score: float


class GraphEdge(BaseModel):
    id: uuid.UUID
    source_id: uuid.UUID
    target_id: uuid.UUID
    type: str
    fact: str
    score: float


class GraphSearchResult(BaseModel):
    mode: Literal["standard", "quick"]
    entities: list[str] = Field(description="The query's entities (standard mode).")
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    definitions: str = Field(description="`name: summary` pairs, comma-separated.")
    facts: str = Field(description="One line per edge: `<source> <type> <target>, <fact>`.")
    mermaid: str
    actions: list[dict[str, Any]] = Field(
        description="What each step did; a degraded step says so (`degraded: true`)."
    )


class GraphStatus(BaseModel):
    enrichment: EnrichmentSettings
    graph: GraphSettings
    jobs: dict[str, int] = Field(description="The knowledge base's graph jobs by status.")
    entities: int = Field(description="Entities in the knowledge base (all documents).")
    relations: int = Field(description="Relations in the knowledge base (all documents).")
