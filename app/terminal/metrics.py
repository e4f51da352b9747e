"""Retrieval metrics as trec_eval / pytrec_eval compute them: linear gain, log2 discount."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def dcg(gains: Sequence[float]) -> float:
    """Discounted cumulative gain: gain_i / log2(i + 1) for ranks i = 1, 2, ..."""
    return sum(gain / math.log2(rank + 1) for rank, gain in enumerate(gains, start=1))


def ndcg_at(ranked: Sequence[str], qrels: Mapping[str, int], k: int = 10) -> float:
    """trec_eval ndcg_cut.k: linear gains of the top k, over the ideal DCG of the qrels."""
    gains = [float(qrels.get(doc, 0)) for doc in ranked[:k]]
    ideal = sorted((float(g) for g in qrels.values() if g > 0), reverse=True)[:k]
    best = dcg(ideal)
    return dcg(gains) / best if best > 0 else 0.0


def recall_at(ranked: Sequence[str], qrels: Mapping[str, int], k: int = 100) -> float:
    """trec_eval recall.k: relevant documents in the top k over all relevant documents."""
    relevant = {doc for doc, grade in qrels.items() if grade > 0}
    if not relevant:
        return 0.0
    return len(relevant & set(ranked[:k])) / len(relevant)


def reciprocal_rank(ranked: Sequence[str], qrels: Mapping[str, int], k: int = 10) -> float:
    """1 / the rank of the first relevant document in the top k (0 without one)."""
    for rank, doc in enumerate(ranked[:k], start=1):
        if qrels.get(doc, 0) > 0:
            return 1.0 / rank
    return 0.0


def unique(ids: Sequence[str]) -> list[str]:
    """Document ids in first-seen order (a document's best chunk stands for it)."""
    return list(dict.fromkeys(ids))
