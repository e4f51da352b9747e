"""Compare app/evaluations/measures.py with pytrec_eval on random graded judgments.

Not part of the test suite (pytrec_eval is a compiled package Arbor does not need): run it in
any environment that has `pytrec-eval-terrier` installed, from the repository root:

    python -m venv /tmp/trec && /tmp/trec/bin/pip install pytrec-eval-terrier
    /tmp/trec/bin/python scripts/check_measures.py

MRR@10 is compared with trec_eval's recip_rank over runs cut to their top 10.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytrec_eval  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parents[1]


def main(queries: int = 300, seed: int = 7) -> None:
    spec = importlib.util.spec_from_file_location("measures", ROOT / "app/evaluations/measures.py")
    assert spec is not None
    assert spec.loader is not None
    measures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(measures)
    rng = random.Random(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    ours: dict[str, dict[str, float]] = {}
    for q in range(queries):
        docs = [f"d{i}" for i in range(60)]
        judged = {d: rng.choice([0, 0, 1, 1, 2, 3]) for d in rng.sample(docs, rng.randint(1, 15))}
        ranked = rng.sample(docs, rng.randint(1, 50))
        qrels[f"q{q}"] = judged
        run[f"q{q}"] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
        ours[f"q{q}"] = measures.measure(ranked, judged)
    full = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.10", "recall.100"})
    theirs = full.evaluate(run)
    cut = {q: dict(sorted(r.items(), key=lambda kv: -kv[1])[:10]) for q, r in run.items()}
    rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(cut)
    pairs = [
        ("ndcg_at_10", "ndcg_cut_10", theirs),
        ("recall_at_10", "recall_10", theirs),
        ("recall_at_100", "recall_100", theirs),
        ("mrr_at_10", "recip_rank", rr),
    ]
    worst = max(abs(ours[q][mine] - source[q][name]) for q in qrels for mine, name, source in pairs)
    print(f"{queries} queries, largest difference from pytrec_eval: {worst:g}")
    if worst > 1e-9:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
