"""The retrieval metrics (scripts/eval.py, `arbor eval`) against hand-computed trec_eval values."""

from __future__ import annotations

import math
from types import ModuleType

import pytest

from app.terminal import metrics as shared_metrics


def load() -> ModuleType:
    return shared_metrics


def test_ndcg_at_10_matches_a_hand_computed_example() -> None:
    metrics = load()
    qrels = {"a": 1, "b": 2, "c": 1, "z": 0}
    ranked = ["x", "b", "y", "a", "z"]
    # DCG = 2/log2(3) + 1/log2(5); ideal gains 2, 1, 1: 2/log2(2) + 1/log2(3) + 1/log2(4).
    dcg = 2 / math.log2(3) + 1 / math.log2(5)
    ideal = 2 + 1 / math.log2(3) + 0.5
    assert metrics.ndcg_at(ranked, qrels) == pytest.approx(dcg / ideal)
    assert metrics.ndcg_at(["b", "a", "c"], qrels) == pytest.approx(1.0)
    assert metrics.ndcg_at(["x"], qrels) == 0.0
    # Only the top k count: the relevant document at rank 11 adds nothing to nDCG@10.
    assert metrics.ndcg_at([f"n{i}" for i in range(10)] + ["b"], qrels) == 0.0


def test_recall_at_100_counts_relevant_documents_in_the_cut() -> None:
    metrics = load()
    qrels = {"a": 1, "b": 1, "c": 0}
    assert metrics.recall_at(["a", "c", "x"], qrels) == pytest.approx(0.5)
    assert metrics.recall_at([f"n{i}" for i in range(100)] + ["a", "b"], qrels) == 0.0
    assert metrics.recall_at(["b", "a"], qrels) == 1.0


def test_a_document_counts_once_at_its_best_chunk() -> None:
    metrics = load()
    assert metrics.unique(["d1", "d2", "d1", "d3"]) == ["d1", "d2", "d3"]


def test_reciprocal_rank_of_the_first_relevant_document() -> None:
    metrics = load()
    qrels = {"a": 1, "b": 2, "z": 0}
    assert metrics.reciprocal_rank(["z", "x", "b", "a"], qrels) == pytest.approx(1 / 3)
    assert metrics.reciprocal_rank(["x"] * 10 + ["a"], qrels) == 0.0
