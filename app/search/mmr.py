"""Maximal marginal relevance: reorder hits so near-duplicates do not crowd the top."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def mmr_order(
    relevance: Sequence[float],
    vectors: Sequence[Sequence[float] | None],
    *,
    lambda_: float,
    count: int,
) -> list[int]:
    """Indexes in MMR order: each pick maximises lambda*rel - (1-lambda)*max sim to the picked.

    Relevance is the hit's score as returned (cosine, text or fused score, all on a 0-1-ish
    scale like the cosine redundancy it is traded against); a hit without a vector is never
    penalised. The first `count` positions are chosen greedily, the rest keep their order.
    """
    n = len(relevance)
    if n == 0:
        return []
    rel = np.asarray(relevance, dtype=np.float64)
    dims = next((len(v) for v in vectors if v is not None), 0)
    matrix = np.zeros((n, max(dims, 1)), dtype=np.float64)
    for i, vector in enumerate(vectors):
        if vector is not None:
            row = np.asarray(vector, dtype=np.float64)
            norm = float(np.linalg.norm(row))
            matrix[i, : len(row)] = row / norm if norm > 0 else row
    similarity = matrix @ matrix.T
    penalty = np.full(n, -np.inf)
    remaining = np.ones(n, dtype=bool)
    picked: list[int] = []
    for _ in range(min(count, n)):
        redundancy = np.where(np.isfinite(penalty), penalty, 0.0)
        value = lambda_ * rel - (1 - lambda_) * redundancy
        value[~remaining] = -np.inf
        choice = int(np.argmax(value))
        picked.append(choice)
        remaining[choice] = False
        penalty = np.maximum(penalty, similarity[choice])
    return picked + [i for i in range(n) if remaining[i]]
