"""scripts/eval.py's metrics against hand-computed trec_eval values."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "eval.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("arbor_eval", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
