"""The evaluation measures against values worked out by hand from trec_eval's definitions."""

from __future__ import annotations

import math

import pytest

from app.evaluations import measures
from app.evaluations.formats import read_qrels, read_queries
from app.kit.errors import ValidationFailed

RANKED = ["d3", "d1", "d7", "d2"]
JUDGED = {"d1": 2, "d2": 1, "d5": 1, "d9": 0}


def test_ndcg_uses_linear_gains_log2_discount_and_the_ideal_of_every_judgment() -> None:
    # d1 (grade 2) at rank 2, d2 (grade 1) at rank 4; ideal: 2, 1, 1 at ranks 1-3.
    dcg = 2 / math.log2(3) + 1 / math.log2(5)
    ideal = 2 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)
    assert measures.ndcg_cut(RANKED, JUDGED, 10) == pytest.approx(dcg / ideal)
    assert measures.ndcg_cut(RANKED, JUDGED, 10) == pytest.approx(0.540586, abs=1e-6)
    # Cut at 2: DCG of d3, d1 over the ideal of grades 2, 1.
    assert measures.ndcg_cut(RANKED, JUDGED, 2) == pytest.approx(
        (2 / math.log2(3)) / (2 + 1 / math.log2(3))
    )
    assert measures.ndcg_cut(["d1", "d2", "d5"], JUDGED, 10) == pytest.approx(1.0)
    assert measures.ndcg_cut(RANKED, {"d9": 0}, 10) == 0.0


def test_recall_counts_grades_of_one_or_more() -> None:
    assert measures.recall(RANKED, JUDGED, 10) == pytest.approx(2 / 3)
    assert measures.recall(RANKED, JUDGED, 2) == pytest.approx(1 / 3)
    assert measures.recall(RANKED, JUDGED, 1) == 0.0
    assert measures.recall(RANKED, {"d9": 0}, 10) == 0.0
    assert measures.recall([], JUDGED, 100) == 0.0


def test_reciprocal_rank_of_the_first_relevant_within_the_cut() -> None:
    assert measures.reciprocal_rank(RANKED, JUDGED, 10) == 0.5
    assert measures.reciprocal_rank(RANKED, JUDGED, 1) == 0.0
    assert measures.reciprocal_rank(["x"] * 10 + ["d1"], JUDGED, 10) == 0.0
    assert measures.measure(RANKED, JUDGED) == {
        "ndcg_at_10": pytest.approx(0.540586, abs=1e-6),
        "recall_at_10": pytest.approx(2 / 3),
        "recall_at_100": pytest.approx(2 / 3),
        "mrr_at_10": 0.5,
    }


def test_beir_files_are_read() -> None:
    queries = read_queries(
        b'{"_id": "q1", "text": "leave", "metadata": {}}\n\n{"_id": "q2", "text": "x"}\n'
    )
    assert [q["_id"] for q in queries] == ["q1", "q2"]
    qrels = read_qrels(b"query-id\tcorpus-id\tscore\nq1\tdoc-a\t1\nq2\t0\tdoc-b\t2\n")
    assert qrels == [
        {"query_id": "q1", "doc_id": "doc-a", "score": 1},
        {"query_id": "q2", "doc_id": "doc-b", "score": 2},
    ]
    with pytest.raises(ValidationFailed):
        read_qrels(b"q1\tdoc-a\tone\n")
    with pytest.raises(ValidationFailed):
        read_queries(b"not json\n")
