"""Retrieval measures with pytrec_eval's (trec_eval's) definitions, for one query's ranking.

`ranked` is the run for the query, best first, one entry per document; `judged` maps
documents to their relevance grade. A document counts as relevant with grade >= 1 (trec_eval's
relevance level); gains are the grades themselves (linear, negatives as 0); ranks discount by
log2(rank + 1). Unjudged documents are not relevant. The ideal ranking is every judged document
by grade, including those the run never found.

- ndcg_cut.10: DCG of the top 10 over the ideal DCG of the top 10.
- recall.k: relevant documents in the top k over all relevant documents (0 with none).
- MRR@10: trec_eval's recip_rank over the run cut to its top 10 (as BEIR reports MRR@10): one
  over the rank of the first relevant document, 0 when none is in the top 10.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

RELEVANCE_LEVEL = 1


def _dcg(gains: Sequence[float]) -> float:
    return sum(gain / math.log2(rank + 1) for rank, gain in enumerate(gains, start=1) if gain > 0)


def ndcg_cut(ranked: Sequence[str], judged: Mapping[str, int], k: int) -> float:
    ideal = _dcg(sorted((max(float(g), 0.0) for g in judged.values()), reverse=True)[:k])
    if ideal <= 0:
        return 0.0
    return _dcg([max(float(judged.get(doc, 0)), 0.0) for doc in ranked[:k]]) / ideal


def recall(ranked: Sequence[str], judged: Mapping[str, int], k: int) -> float:
    relevant = {doc for doc, grade in judged.items() if grade >= RELEVANCE_LEVEL}
    if not relevant:
        return 0.0
    return len(relevant.intersection(ranked[:k])) / len(relevant)


def reciprocal_rank(ranked: Sequence[str], judged: Mapping[str, int], k: int) -> float:
    for rank, doc in enumerate(ranked[:k], start=1):
        if judged.get(doc, 0) >= RELEVANCE_LEVEL:
            return 1.0 / rank
    return 0.0


def measure(ranked: Sequence[str], judged: Mapping[str, int]) -> dict[str, float]:
    """Every measure an evaluation reports, for one query."""
    return {
        "ndcg_at_10": ndcg_cut(ranked, judged, 10),
        "recall_at_10": recall(ranked, judged, 10),
        "recall_at_100": recall(ranked, judged, 100),
        "mrr_at_10": reciprocal_rank(ranked, judged, 10),
    }


MEASURES = ("ndcg_at_10", "recall_at_10", "recall_at_100", "mrr_at_10")
