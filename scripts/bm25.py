"""BM25 on a BEIR test set with `bm25s`: the lexical baseline search quality is measured against.

Indexes `title + " " + text` of every document (as BEIR does) with bm25s's Lucene variant
(k1 1.2, b 0.75), English stop words and, unless `--no-stem`, the Snowball English stemmer;
ranks the top 100 for each judged query and prints nDCG@10 and Recall@100 as trec_eval
computes them. `--write` puts the figures for every corpus given in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import bm25s
import Stemmer

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.terminal.metrics import ndcg_at, recall_at  # noqa: E402
from scripts import eval as beir  # noqa: E402

START, END = "<!-- bm25:start -->", "<!-- bm25:end -->"


def measure(folder: Path, *, stem: bool, size: int = 0) -> tuple[float, float, int, int, float]:
    """nDCG@10, Recall@100, judged queries, documents and indexing seconds for one corpus."""
    beir.DATA = folder
    corpus, queries, qrels = beir.load_corpus(), beir.load_queries(), beir.load_qrels()
    queries = [query for query in queries if query["_id"] in qrels]
    if size:
        corpus, queries, qrels = beir.sample(corpus, queries, qrels, size)
    stemmer = Stemmer.Stemmer("english") if stem else None
    started = time.perf_counter()
    tokens = bm25s.tokenize(
        [f"{doc['title']} {doc['text']}" for doc in corpus],
        stopwords="en",
        stemmer=stemmer,
        show_progress=False,
    )
    retriever = bm25s.BM25(method="lucene", k1=1.2, b=0.75)
    retriever.index(tokens, show_progress=False)
    index_s = time.perf_counter() - started
    asked = bm25s.tokenize(
        [query["text"] for query in queries], stopwords="en", stemmer=stemmer, show_progress=False
    )
    found, _scores = retriever.retrieve(asked, k=100, show_progress=False, n_threads=1)
    ndcg = recall = 0.0
    for query, row in zip(queries, found, strict=True):
        ranked = [corpus[int(i)]["_id"] for i in row]
        ndcg += ndcg_at(ranked, qrels[query["_id"]])
        recall += recall_at(ranked, qrels[query["_id"]])
    return ndcg / len(queries), recall / len(queries), len(queries), len(corpus), index_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "folders",
        nargs="*",
        type=Path,
        default=[ROOT.parent / "shared" / "eval" / name for name in ("scifact", "nfcorpus")],
        help="BEIR folders (default: ../shared/eval/scifact and ../shared/eval/nfcorpus)",
    )
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    parser.add_argument(
        "--sample", type=int, default=0, help="the documents `scripts/eval --sample N` keeps"
    )
    args = parser.parse_args()
    rows = []
    for folder in args.folders:
        for stem in (True, False):
            ndcg, recall, n, documents, index_s = measure(folder, stem=stem, size=args.sample)
            name = f"{folder.name}, {'stemmed' if stem else 'not stemmed'}"
            rows.append(f"| {name} | {n} | {documents:,} | {ndcg:.4f} | {recall:.4f} |")
            print(f"{name:30s} nDCG@10 {ndcg:.4f}  Recall@100 {recall:.4f}  index {index_s:.1f} s")
    table = "\n".join(
        [
            "## Search quality: BM25 baseline (`scripts/bm25`)",
            "",
            f"bm25s {bm25s.__version__}, Lucene BM25 (k1 1.2, b 0.75), English stop words, "
            'Snowball English stemmer (or none), over `title + " " + text` of each document; '
            "top 100 per judged test query, measured as `scripts/eval` measures the service.",
            "",
            "| corpus | queries | documents | nDCG@10 | Recall@100 |",
            "| --- | --- | --- | --- | --- |",
            *rows,
            "",
            "Command: `scripts/bm25 --write`.",
        ]
    )
    print(table)
    if args.write and not args.sample:
        beir.write_section(table, START, END)


if __name__ == "__main__":
    main()
