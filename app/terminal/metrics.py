"""Retrieval measures for client-side scoring (scripts/eval), computed by the evaluations' own
definitions (app/evaluations/measures.py: pytrec_eval's), with BEIR's usual cut-offs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.evaluations import measures


def ndcg_at(ranked: Sequence[str], qrels: Mapping[str, int], k: int = 10) -> float:
    return measures.ndcg_cut(ranked, qrels, k)


def recall_at(ranked: Sequence[str], qrels: Mapping[str, int], k: int = 100) -> float:
    return measures.recall(ranked, qrels, k)


def reciprocal_rank(ranked: Sequence[str], qrels: Mapping[str, int], k: int = 10) -> float:
    return measures.reciprocal_rank(ranked, qrels, k)


def unique(ids: Sequence[str]) -> list[str]:
    """Document ids in first-seen order (a document's best chunk stands for it)."""
    return list(dict.fromkeys(ids))
