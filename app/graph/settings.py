"""A knowledge base's enrichment and graph settings: both off unless asked for."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.kit.schemas import RequestModel


class EnrichmentSettings(RequestModel):
    """What the enricher writes onto every node of a document's tree after it is embedded."""

    summaries: bool = Field(
        default=False,
        description="An extractive summary per node with text: its most central sentences.",
    )
    keywords: bool = Field(default=False, description="Keywords per node, by YAKE.")
    entities: bool = Field(
        default=False, description="Named entities per node, from the local NLP pipeline."
    )

    @property
    def any(self) -> bool:
        return self.summaries or self.keywords or self.entities


class GraphSettings(RequestModel):
    """Whether documents feed the knowledge base's entity and relation graph, and how."""

    enabled: bool = False
    extractor: Literal["local", "llm"] = Field(
        default="local",
        description="`local`: the offline spaCy pipeline. `llm`: the configured "
        "OpenAI-compatible chat model (`ARBOR_LLM_*`).",
    )


def enrichment_of(stored: dict[str, Any] | None) -> EnrichmentSettings:
    return EnrichmentSettings.model_validate(stored or {})


def graph_of(stored: dict[str, Any] | None) -> GraphSettings:
    return GraphSettings.model_validate(stored or {})


def wants_stage(enrichment: dict[str, Any] | None, graph: dict[str, Any] | None) -> bool:
    """Whether a document of a knowledge base with these settings goes through the graph stage;
    cheap, because ingestion asks it for every document."""
    if not enrichment and not graph:
        return False
    return enrichment_of(enrichment).any or graph_of(graph).enabled
