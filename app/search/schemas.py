"""The public contract of search: one request shape for one or many knowledge bases."""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.ingestion.chunking.base import ChunkSpan
from app.ingestion.tree import Entity
from app.kit.schemas import NON_BLANK, RequestModel, SqlFloat, sent
from app.kit.strings import StoredText
from app.kit.vectors import as_float32, storable_vector_schema, unit_vector, vector_problem

MAX_QUERY_CHARS = 20_000
MAX_VECTOR_DIMS = 16_000
MAX_KNOWLEDGE_BASES = 20


class SearchMode(StrEnum):
    HYBRID = "hybrid"
    VECTOR = "vector"
    TEXT = "text"


class Fusion(StrEnum):
    RRF = "rrf"
    WEIGHTED = "weighted"


class TextMatch(StrEnum):
    ANY = "any"
    WEBSEARCH = "websearch"


class Include(StrEnum):
    CONTEXT = "context"
    EXPLAIN = "explain"
    VECTORS = "vectors"


class MmrOptions(RequestModel):
    """Maximal marginal relevance over the best `rerank_depth` hits (needs vectors)."""

    model_config = ConfigDict(populate_by_name=True)

    lambda_: SqlFloat = Field(
        default=0.5,
        alias="lambda",
        ge=0,
        le=1,
        description="1 keeps the relevance order; 0 picks only for diversity.",
    )


class SearchOptions(RequestModel):
    """Everything a search takes besides where to search."""

    # Without a vector, a query with words (`if`/`else`: SDK generators read it as no
    # constraint, where a body-level `anyOf` made them drop the operation).
    model_config = ConfigDict(
        json_schema_extra={
            "if": sent("vector", {"type": "array"}),
            "else": sent("query", NON_BLANK),
        }
    )

    query: StoredText | None = Field(
        default=None,
        max_length=MAX_QUERY_CHARS,
        description="Natural-language query; embedded for vector search, parsed for text search.",
    )
    vector: list[float] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_VECTOR_DIMS,
        description="A query vector of the knowledge base's dimension (instead of embedding "
        "`query`; with `query` too, text search uses the text and vector search the vector).",
        json_schema_extra=storable_vector_schema,
    )
    mode: SearchMode = Field(default=SearchMode.HYBRID)
    top_k: int = Field(default=10, ge=1, le=200, description="Hits to return.")
    offset: int = Field(
        default=0,
        ge=0,
        le=10_000,
        description="Hits to skip (paging). Every page of one query ranks the same pool (each "
        "side's best `candidates`; with rerank or MMR the best max(rerank_depth, top_k) fused "
        "hits), so pages never repeat or skip a hit; a page shorter than top_k "
        "is the last. Raise `candidates` (or `rerank_depth`) to page deeper.",
    )
    score_threshold: SqlFloat | None = Field(
        default=None,
        description="Drop hits whose returned `score` is below this (see docs/search.md for the "
        "meaning of the score in each mode).",
    )
    filter: dict[str, Any] | None = Field(
        default=None,
        description='Mongo-like filter, e.g. {"metadata.year": {"$gte": 2020}}; '
        "see docs/search.md.",
        examples=[{"metadata.year": {"$gte": 2020}, "format": {"$in": ["pdf", "md"]}}],
    )
    fusion: Fusion = Field(
        default=Fusion.WEIGHTED,
        description="`weighted`: min-max normalised weighted sum; `rrf`: reciprocal rank fusion "
        "(k=60), normalised to (0, 1].",
    )
    vector_weight: SqlFloat = Field(
        default=0.5, ge=0, le=1, description="Weight of the vector side in fusion."
    )
    candidates: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="Candidates taken from each side before fusion; default max(100, top_k).",
    )
    text_match: TextMatch = Field(
        default=TextMatch.ANY,
        description="`any`: a chunk matches when it has any of the query's terms (ranked by "
        "how many and how close); `websearch`: websearch_to_tsquery syntax (all terms, "
        '"phrases", or, -exclusion).',
    )
    ef_search: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description="HNSW search breadth; default max(40, candidates), at most 1000.",
    )
    include: list[Include] = Field(
        default_factory=list, description="Extras per hit: context, explain, vectors."
    )
    rerank: bool = Field(default=False, description="Re-score the best hits with the reranker.")
    mmr: MmrOptions | None = Field(default=None, description="Diversify the best hits.")
    rerank_depth: int = Field(
        default=50,
        ge=1,
        le=500,
        description="How many of the best hits rerank and MMR reconsider (at least top_k); "
        "pages with an offset come from this one pool.",
    )

    @field_validator("vector")
    @classmethod
    def _searchable(cls, vector: list[float] | None) -> list[float] | None:
        if vector is not None:
            problem = vector_problem(as_float32(vector))
            if problem is not None:
                raise ValueError(f"the vector {problem}")
            # Cosine ignores length, but float32 arithmetic in the database does not: a norm
            # that overflows or underflows there gave null or constant scores. Unit length,
            # computed in float64, is the same query without that.
            return unit_vector(vector)
        return vector

    @model_validator(mode="after")
    def _something_to_search(self) -> SearchOptions:
        if (self.query is None or not self.query.strip()) and self.vector is None:
            raise ValueError("give a non-empty `query`, a `vector`, or both")
        return self


class SearchRequest(SearchOptions):
    """A search in the knowledge base named in the path."""


class MultiSearchRequest(SearchOptions):
    """A search across knowledge bases that share one embedding model."""

    knowledge_bases: list[StoredText] = Field(
        min_length=1,
        max_length=MAX_KNOWLEDGE_BASES,
        description="Knowledge base ids or names; all must use the same embedding model.",
    )


class ContextNode(BaseModel):
    """A node of the document tree on the way from the root to the chunk."""

    node_id: str
    kind: str | None = None
    title: str | None = None
    summary: str | None = Field(
        default=None, description="The node's enrichment summary, when one was written."
    )
    entities: list[Entity] = Field(default_factory=list, description="From its enrichment.")
    keywords: list[str] = Field(default_factory=list, description="From its enrichment.")
    page_start: int | None = None
    page_end: int | None = None
    start_offset: int | None = None
    end_offset: int | None = None


class ParentSection(ContextNode):
    text: str = ""
    truncated: bool = False


class NeighbourChunk(BaseModel):
    chunk_id: uuid.UUID
    chunk_index: int
    text: str


class HitContext(BaseModel):
    """Where a hit sits: its ancestors, the section around it, the chunks next to it."""

    ancestors: list[ContextNode] = Field(description="Root first, the chunk's own node excluded.")
    parent: ParentSection | None = Field(
        default=None, description="The nearest enclosing section (or the parent node)."
    )
    previous: NeighbourChunk | None = None
    next: NeighbourChunk | None = None
    # The reference's ChunkRecord fields, from the tree's enrichment (docs/graph.md).
    summary: str | None = Field(default=None, description="The chunk's own node's summary.")
    entities: list[Entity] = Field(
        default_factory=list, description="The chunk's own node's entities."
    )
    parent_summaries: list[str] = Field(
        default_factory=list, description="The ancestors' summaries, root first (those written)."
    )


class ChunkContextRequest(RequestModel):
    chunk_ids: list[uuid.UUID] = Field(min_length=1, max_length=200)


class ChunkContext(BaseModel):
    chunk_id: uuid.UUID
    context: HitContext


class ChunkContexts(BaseModel):
    items: list[ChunkContext] = Field(description="In the order asked, each chunk once.")
    missing: list[uuid.UUID] = Field(
        description="Ids of no chunk of this knowledge base that the caller may read."
    )


class HitExplain(BaseModel):
    """How a hit's score came about. With weighted hybrid fusion, `score` (`fused_score`) is
    `vector_weight * vector_normalized + (1 - vector_weight) * text_normalized`."""

    vector_rank: int | None = Field(
        default=None,
        description="1-based rank on the vector side; null when not among its candidates.",
    )
    vector_similarity: float | None = Field(
        default=None,
        description="Cosine similarity. With weighted hybrid fusion, also for a chunk that was "
        "not a vector candidate (computed from its stored vector, as fusion used it).",
    )
    text_rank: int | None = Field(
        default=None,
        description="1-based rank on the text side; null when not among its candidates.",
    )
    text_score: float | None = Field(
        default=None,
        description="Text score (docs/search.md). With weighted hybrid fusion, also for a chunk "
        "that was not a text candidate (0 when it holds no query term), as fusion used it.",
    )
    text_match: str | None = Field(default=None, description="`fulltext` or `trigram`.")
    vector_normalized: float | None = Field(
        default=None,
        description="Weighted hybrid fusion: vector_similarity min-max normalised over every "
        "candidate of both sides, in [0, 1].",
    )
    text_normalized: float | None = Field(
        default=None,
        description="Weighted hybrid fusion: text_score min-max normalised over every "
        "candidate of both sides, in [0, 1].",
    )
    fused_score: float | None = None
    rerank_score: float | None = None
    mmr_rank: int | None = None


class SearchHit(BaseModel):
    chunk_id: uuid.UUID
    doc_id: uuid.UUID
    knowledge_base_id: uuid.UUID
    doc_title: str
    text: str
    score: float
    chunk_index: int
    node_path: list[str]
    section_titles: list[str]
    depth: int = Field(
        description="Depth of `leaf_node_id` in the document tree, the root 0 (as written, for "
        "chunks from the chunk API)."
    )
    leaf_node_id: str | None = Field(
        description="The deepest tree node holding all of the chunk's text: `node_path`'s last."
    )
    page_start: int | None = None
    page_end: int | None = None
    spans: list[ChunkSpan] = Field(
        default_factory=list,
        description="Set when the chunk holds several small sections merged together: each "
        "one's lineage and range (`section_titles` names only what they share).",
    )
    start_offset: int | None = None
    end_offset: int | None = None
    metadata: dict[str, Any] = Field(description="The document's metadata, then the chunk's.")
    source_id: uuid.UUID | None = Field(
        default=None, description="The knowledge source of the document, if one wrote it."
    )
    source_record_id: str | None = Field(
        default=None, description="The document's item in that source (record id, path, URL)."
    )
    highlights: list[str] = Field(description="Fragments with query terms in <mark> tags.")
    context: HitContext | None = None
    explain: HitExplain | None = None
    vector: list[float] | None = None


class CandidateCounts(BaseModel):
    vector: int = Field(description="Candidates the vector side produced.")
    text: int = Field(description="Candidates the full-text side produced.")
    trigram: int = Field(default=0, description="Trigram fallback candidates (short queries).")


class SearchResponse(BaseModel):
    query: str | None
    mode: SearchMode = Field(description="The mode that ran (see `degraded`).")
    requested_mode: SearchMode
    degraded: str | None = Field(
        default=None,
        description="Why the mode that ran differs from the one asked for "
        "(`no embedder`, `embedder unavailable`, `no query text`).",
    )
    fusion: Fusion | None = None
    vector_weight: float | None = None
    text_query: str | None = Field(
        default=None,
        description="The tsquery that text search ran (in the first knowledge base that ran "
        "one: see `text_queries`).",
    )
    text_queries: dict[uuid.UUID, str | None] = Field(
        default_factory=dict,
        description="Per knowledge base searched, the tsquery its text search ran: each "
        "stems the query in its own language (null: no text side ran there).",
    )
    knowledge_bases: list[uuid.UUID]
    top_k: int
    offset: int
    candidates: CandidateCounts
    reranked: bool = False
    warnings: list[str] = Field(
        default_factory=list,
        description="Why a search may have found nothing: a filtered search without hits names "
        "the metadata keys of its filter that no document (or chunk) you can read has.",
    )
    hits: list[SearchHit]


class CommonLexeme(BaseModel):
    lexeme: str
    chunks: int = Field(description="Chunks holding it when the statistics were counted.")


class TextStatisticsRead(BaseModel):
    """What full-text pruning knows of a knowledge base (docs/search.md), as the caller sees it."""

    match_budget: int = Field(
        description="Query lexemes define candidates, rarest first, while their summed "
        "document frequencies stay within this many chunks; the rest only score."
    )
    chunk_count: int = Field(description="Chunks now.")
    pruning: bool = Field(
        description="Whether unfiltered searches prune now: statistics exist and the knowledge "
        "base holds more chunks than the budget."
    )
    stale: bool = Field(description="A refresh is due (search queues it).")
    counted_chunks: int | None = Field(description="Chunks when the statistics were counted.")
    min_df: int | None = Field(description="Lexemes held by fewer chunks are not counted.")
    lexemes: int = Field(description="Lexemes counted.")
    refreshed_at: datetime | None
    most_common: list[CommonLexeme] = Field(
        description="The 20 most common lexemes; empty when `most_common_withheld` is set."
    )
    most_common_withheld: str | None = Field(
        default=None,
        description="Why `most_common` is empty although lexemes were counted: some document "
        "of the knowledge base is hidden from the caller by its access list, and the counted "
        "lexemes may include that document's words. Null when nothing is withheld (callers "
        "who can read every document, admins).",
    )
