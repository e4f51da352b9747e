"""Fusion of the candidate sides: reciprocal rank, or weighted on completed, normalised scores."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    CTE,
    Float,
    Integer,
    and_,
    case,
    cast,
    func,
    null,
    select,
)
from sqlalchemy.sql.elements import ColumnElement

from app.search.plans import Plan

RRF_K = 60


def _minmax(value: Any, low: Any, high: Any, present: Any) -> ColumnElement[float]:
    return case(
        (present.is_(None), 0.0),
        (high == low, 1.0),
        else_=(value - low) / (high - low),
    )


def _completed_weighted(plan: Plan, vector: CTE, text_side: CTE, completion: CTE | None) -> CTE:
    """Weighted fusion on true scores: a text-only candidate gets its cosine similarity (the
    distance it was read with, carried from the text index), a vector-only one its text
    score (`completion`), and each side is min-max normalised over every candidate of the
    union. A side's score is missing (0 after normalisation) only where it cannot exist: no
    stored vector, or a trigram-only hit."""
    w = plan.vector_weight
    joined = vector.join(text_side, same_chunk(vector, text_side), full=True)
    text_score: Any = func.coalesce(text_side.c.score, 0.0)
    if completion is not None:
        joined = joined.outerjoin(completion, same_chunk(completion, vector))
        text_score = func.coalesce(text_side.c.score, completion.c.score, 0.0)
    similarity = func.coalesce(vector.c.similarity, 1 - text_side.c.distance)
    base = (
        select(
            *_identity(vector, text_side),
            similarity.label("completed"),
            text_score.label("text_completed"),
            *_explain_columns(vector, text_side),
        )
        .select_from(joined)
        .subquery("completed")
    )
    v_low, v_high = func.min(base.c.completed).over(), func.max(base.c.completed).over()
    t_low, t_high = func.min(base.c.text_completed).over(), func.max(base.c.text_completed).over()
    v_norm = _minmax(base.c.completed, v_low, v_high, base.c.completed)
    t_norm = _minmax(base.c.text_completed, t_low, t_high, base.c.text_completed)
    # explain shows what fusion used: the completed scores and their normalised values, so
    # that score = w * vector_normalized + (1 - w) * text_normalized can be checked per hit.
    return select(
        base.c.id,
        base.c.knowledge_base_id,
        cast(w * v_norm + (1 - w) * t_norm, Float).label("score"),
        base.c.vector_rank,
        base.c.completed.label("vector_similarity"),
        base.c.text_rank,
        base.c.text_completed.label("text_score"),
        base.c.text_kind,
        cast(v_norm, Float).label("vector_normalized"),
        cast(t_norm, Float).label("text_normalized"),
    ).cte("fused")


def same_chunk(one: CTE, other: CTE) -> ColumnElement[bool]:
    """A chunk is its id within its knowledge base: two knowledge bases may hold one id."""
    return and_(one.c.id == other.c.id, one.c.knowledge_base_id == other.c.knowledge_base_id)


def _identity(vector: CTE, text_side: CTE) -> list[ColumnElement[Any]]:
    """The chunk of a row of the sides' FULL JOIN, from whichever side found it."""
    return [
        func.coalesce(vector.c.id, text_side.c.id).label("id"),
        func.coalesce(vector.c.knowledge_base_id, text_side.c.knowledge_base_id).label(
            "knowledge_base_id"
        ),
    ]


def _explain_columns(vector: CTE, text_side: CTE) -> list[ColumnElement[Any]]:
    """Each side's own rank and score of a fused candidate (what `include=explain` shows)."""
    return [
        vector.c.rank.label("vector_rank"),
        vector.c.similarity.label("vector_similarity"),
        text_side.c.rank.label("text_rank"),
        text_side.c.score.label("text_score"),
        text_side.c.kind.label("text_kind"),
    ]


def _no_normalisation() -> list[ColumnElement[Any]]:
    """Rank fusion and single-side searches normalise nothing."""
    return [
        cast(null(), Float).label("vector_normalized"),
        cast(null(), Float).label("text_normalized"),
    ]


def fused(plan: Plan, vector: CTE | None, text_side: CTE | None, completion: CTE | None) -> CTE:
    w = plan.vector_weight
    if vector is not None and text_side is not None:
        if not plan.rrf:
            return _completed_weighted(plan, vector, text_side, completion)
        score = (RRF_K + 1) * (
            func.coalesce(w / (RRF_K + vector.c.rank), 0.0)
            + func.coalesce((1 - w) / (RRF_K + text_side.c.rank), 0.0)
        )
        return (
            select(
                *_identity(vector, text_side),
                cast(score, Float).label("score"),
                *_explain_columns(vector, text_side),
                *_no_normalisation(),
            )
            .select_from(vector.join(text_side, same_chunk(vector, text_side), full=True))
            .cte("fused")
        )
    if vector is not None:
        return select(
            vector.c.id,
            vector.c.knowledge_base_id,
            vector.c.similarity.label("score"),
            vector.c.rank.label("vector_rank"),
            vector.c.similarity.label("vector_similarity"),
            cast(null(), Integer).label("text_rank"),
            cast(null(), Float).label("text_score"),
            cast(null(), Integer).label("text_kind"),
            *_no_normalisation(),
        ).cte("fused")
    assert text_side is not None
    return select(
        text_side.c.id,
        text_side.c.knowledge_base_id,
        text_side.c.score.label("score"),
        cast(null(), Integer).label("vector_rank"),
        cast(null(), Float).label("vector_similarity"),
        text_side.c.rank.label("text_rank"),
        text_side.c.score.label("text_score"),
        text_side.c.kind.label("text_kind"),
        *_no_normalisation(),
    ).cte("fused")
