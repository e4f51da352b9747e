"""Retrieval: Arbor's own search, with the caller's visibility, plus an optional graph seam."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from app.answers.schemas import AnswerOptions
from app.chunks.embedding import EmbedderFactory
from app.db.engine import Database
from app.models import KnowledgeBase
from app.search import service as search
from app.search.rerank import Reranker
from app.search.schemas import Include, SearchHit, SearchOptions


@dataclass(slots=True)
class GraphContext:
    """What a knowledge graph adds to the prompt: `name: summary` definitions and facts."""

    definitions: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)


class GraphContextProvider(Protocol):
    """The knowledge graph's side of retrieval (app/graph plugs in here; None until then).

    It runs in the retrieval transaction, so row-level security scopes it to the caller's
    project and knowledge bases; it must apply `visible` to every document it reads from."""

    async def context(
        self,
        session: AsyncSession,
        *,
        knowledge_bases: Sequence[KnowledgeBase],
        question: str,
        entities: Sequence[str],
        visible: ColumnElement[bool] | None,
        principals: frozenset[str] | None,
        quick: bool,
    ) -> GraphContext: ...


@dataclass(frozen=True, slots=True)
class RetrievalScope:
    """Who is asking, fixed in the request before the flow runs."""

    project_id: uuid.UUID
    # The caller's key's knowledge bases (None: all of the project's).
    allowed_knowledge_bases: frozenset[uuid.UUID] | None
    # Resolved (and checked) when the request arrived; loaded columns only, no session.
    knowledge_bases: tuple[KnowledgeBase, ...]
    visible: ColumnElement[bool] | None
    # The principals `visible` was built from (None: every document), for the graph.
    principals: frozenset[str] | None = None


@dataclass(slots=True)
class Retrieved:
    hits: list[SearchHit]
    relevant: list[SearchHit]
    counts: dict[str, int]
    search_mode: str
    degraded: str | None
    graph: GraphContext | None


# A full-text match counts when it scores at least this share of the best one: a chunk that
# shares only the document title's word with the question is not a source for it.
TEXT_FLOOR_RATIO = 0.25


def relevant_hits(hits: Sequence[SearchHit], *, min_similarity: float) -> list[SearchHit]:
    """The hits above the relevance floor: the question's words matched (full text, scoring
    at least a quarter of the best text match), or the passage is close enough in meaning
    (cosine >= min_similarity). Fused scores are min-max normalised per query, so the best
    hit scores 1 however poor it is; only these absolute signals can say "nothing relevant"."""
    text_scores = [
        h.explain.text_score
        for h in hits
        if h.explain is not None
        and h.explain.text_match == "fulltext"
        and h.explain.text_rank is not None
        and h.explain.text_score is not None
    ]
    text_floor = TEXT_FLOOR_RATIO * max(text_scores) if text_scores else 0.0
    kept: list[SearchHit] = []
    for hit in hits:
        explain = hit.explain
        if (
            explain is None
            or (
                explain.text_match == "fulltext"
                and explain.text_rank is not None
                and (explain.text_score or 0.0) >= text_floor
            )
            or (
                explain.vector_similarity is not None
                and explain.vector_similarity >= min_similarity
            )
        ):
            kept.append(hit)
    return kept


def search_options(options: AnswerOptions, question: str) -> SearchOptions:
    return SearchOptions(
        query=question,
        mode=options.search_mode,
        top_k=options.top_k,
        filter=options.filter,
        fusion=options.fusion,
        vector_weight=options.vector_weight,
        text_match=options.text_match,
        rerank=options.rerank,
        mmr=options.mmr,
        include=[Include.EXPLAIN],
    )


async def retrieve(
    database: Database,
    scope: RetrievalScope,
    options: AnswerOptions,
    *,
    question: str,
    entities: Sequence[str],
    quick: bool,
    embedders: EmbedderFactory,
    reranker: Reranker | None,
    graph: GraphContextProvider | None,
) -> Retrieved:
    """Search in one short read-only snapshot scoped like the caller's own search request (the
    connection is released before generation, which may take a minute)."""
    async with database.transaction(
        project_id=scope.project_id,
        knowledge_bases=scope.allowed_knowledge_bases,
        one_snapshot=True,
        read_only=True,
    ) as session:
        kbs = list(scope.knowledge_bases)
        found = await search.search(
            session,
            kbs,
            search_options(options, question),
            embedders=embedders,
            reranker=reranker,
            visible=scope.visible,
        )
        graph_context = (
            await graph.context(
                session,
                knowledge_bases=kbs,
                question=question,
                entities=entities,
                visible=scope.visible,
                principals=scope.principals,
                quick=quick,
            )
            if graph is not None
            else None
        )
    relevant = relevant_hits(found.hits, min_similarity=options.min_similarity)
    counts = {
        "vector": found.candidates.vector,
        "text": found.candidates.text,
        "trigram": found.candidates.trigram,
        "hits": len(found.hits),
        "relevant": len(relevant),
    }
    if graph_context is not None:
        counts["definitions"] = len(graph_context.definitions)
        counts["facts"] = len(graph_context.facts)
    return Retrieved(
        hits=found.hits,
        relevant=relevant,
        counts=counts,
        search_mode=found.mode.value,
        degraded=found.degraded,
        graph=graph_context,
    )
