"""Retrieval quality on a BEIR test set through the HTTP API: nDCG@10 and Recall@100 per mode.

Starts `arbor serve` on a free port with a temporary data dir, creates a knowledge base,
uploads the corpus (`--data`, a BEIR folder: SciFact by default) as JSON text documents through
`POST .../documents`, chunked and embedded by the ingestion pipeline with default settings
(`--ingest chunks`: one chunk per document via the chunk bulk API instead, as BEIR indexes
whole documents; `--chunking` adds knowledge-base chunking settings), refreshes the knowledge
base's term statistics (as the service does soon after a load), runs the test queries in each
mode and prints the table; `--write` puts it in docs/benchmarks.md (only the section between
this corpus's markers). `--data-dir DIR` keeps the server's data, and a later run with the same
folder skips the ingestion.
`--through evaluations` posts the judged set once to `POST .../evaluations` and reads the
service's own measures instead of searching and scoring here (the same numbers: both follow
trec_eval).

Metrics follow trec_eval / pytrec_eval: linear gain, log2 discount, ideal DCG from the qrels.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import csv
import gzip
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.terminal.metrics import ndcg_at, recall_at, unique  # noqa: E402
from scripts.bench_ingest import free_port, wait_until_ready  # noqa: E402

DATA = Path(os.environ.get("ARBOR_EVAL_DIR", ROOT.parent / "shared" / "eval" / "scifact"))
if not DATA.exists():
    DATA = Path("/work/shared/eval/scifact")
BENCHMARKS = ROOT / "docs" / "benchmarks.md"


START, END = "<!-- search-eval:start -->", "<!-- search-eval:end -->"


def markers(corpus: str) -> tuple[str, str]:
    """The comments that hold a corpus's section in docs/benchmarks.md."""
    if corpus == "scifact":
        return START, END
    return f"<!-- search-eval-{corpus}:start -->", f"<!-- search-eval-{corpus}:end -->"


# --- data ------------------------------------------------------------------------------------


def load_corpus() -> list[dict[str, Any]]:
    with gzip.open(DATA / "corpus.jsonl.gz", "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def load_queries() -> list[dict[str, str]]:
    with gzip.open(DATA / "queries.jsonl.gz", "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def load_qrels() -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with (DATA / "qrels-test.tsv").open(encoding="utf-8") as rows:
        reader = csv.reader(rows, delimiter="\t")
        next(reader)
        for query_id, doc_id, score in reader:
            qrels.setdefault(query_id, {})[doc_id] = int(score)
    return qrels


def sample(
    corpus: list[dict[str, Any]],
    queries: list[dict[str, str]],
    qrels: dict[str, dict[str, int]],
    size: int,
) -> tuple[list[dict[str, Any]], list[dict[str, str]], dict[str, dict[str, int]]]:
    """A smaller test set of `size` documents, the same on every run: the judged documents of
    queries taken in a seeded random order, while they fill half of it, then random others.
    Judgments of documents left out are dropped, and queries left without any. A fast proxy
    for comparing settings on one machine, not comparable with figures on the whole corpus."""
    rng = random.Random(0)
    order = list(queries)
    rng.shuffle(order)
    kept: dict[str, None] = {}
    for query in order:
        judged = [doc for doc in qrels[query["_id"]] if doc not in kept]
        if len(kept) + len(judged) <= size // 2:
            kept.update(dict.fromkeys(judged))
    others = [doc["_id"] for doc in corpus if doc["_id"] not in kept]
    kept.update(dict.fromkeys(rng.sample(others, min(len(others), size - len(kept)))))
    documents = [doc for doc in corpus if doc["_id"] in kept]
    judged = {
        query_id: {doc: grade for doc, grade in grades.items() if doc in kept}
        for query_id, grades in qrels.items()
    }
    judged = {query_id: grades for query_id, grades in judged.items() if grades}
    return documents, [query for query in queries if query["_id"] in judged], judged


# --- server ----------------------------------------------------------------------------------


@contextmanager
def server(data_dir: Path, extra_env: Mapping[str, str] | None = None) -> Iterator[str]:
    with served(data_dir, extra_env) as (base, _pid):
        yield base


@contextmanager
def served(
    data_dir: Path,
    extra_env: Mapping[str, str] | None = None,
    *,
    root: Path = ROOT,
    log_name: str = "server.log",
) -> Iterator[tuple[str, int]]:
    """`arbor serve` on a free port with its data in `data_dir`: its URL and process id.

    `root`: the checkout whose code runs (another one serves the same data for a comparison).
    """
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(ARBOR_DATA_DIR=str(data_dir), PORT=str(port), ARBOR_LOG_LEVEL="warning")
    env.update(extra_env or {})
    log = (data_dir / log_name).open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve"], cwd=root, env=env, stdout=log, stderr=log
    )
    base = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_until_ready(base, process, timeout_s=900)  # a loaded machine starts slowly
        except SystemExit as exc:
            raise SystemExit(f"{exc}; see {data_dir / log_name}") from None
        yield base, process.pid
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        log.close()


def ingest_chunks(http: httpx.Client, kb: str, corpus: list[dict[str, Any]], batch: int) -> None:
    for start in range(0, len(corpus), batch):
        chunks = [
            {"doc_id": doc["_id"], "text": f"{doc['title']} {doc['text']}", "doc_title": ""}
            for doc in corpus[start : start + batch]
        ]
        response = http.post(f"/v1/knowledge-bases/{kb}/chunks/bulk", json={"chunks": chunks})
        response.raise_for_status()
        print(f"  {min(start + batch, len(corpus))}/{len(corpus)} documents", file=sys.stderr)


def ingest_documents(http: httpx.Client, kb: str, corpus: list[dict[str, Any]]) -> None:
    def send(doc: dict[str, Any]) -> None:
        response = http.post(
            f"/v1/knowledge-bases/{kb}/documents",
            params={"wait": "true", "timeout": 600},
            json={
                "text": f"{doc['title']} {doc['text']}",
                "title": doc["title"],
                "external_id": doc["_id"],
            },
        )
        response.raise_for_status()

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for done, _ in enumerate(pool.map(send, corpus), start=1):
            if done % 500 == 0:
                print(f"  {done}/{len(corpus)} documents", file=sys.stderr)


def refresh_text_statistics(http: httpx.Client, kb: str) -> None:
    """Count common terms now, as the service would soon after ingestion, and wait for it."""
    job = http.post(f"/v1/knowledge-bases/{kb}/text-statistics/refresh")
    job.raise_for_status()
    while job.json()["status"] in ("queued", "running"):
        time.sleep(0.2)
        job = http.get(f"/v1/knowledge-bases/{kb}/jobs/{job.json()['id']}")
        job.raise_for_status()
    if job.json()["status"] != "succeeded":
        raise SystemExit(f"text statistics refresh failed: {job.json()}")


def run(
    http: httpx.Client,
    kb: str,
    queries: list[dict[str, str]],
    qrels: dict[str, dict[str, int]],
    external: dict[str, str],
    body: dict[str, Any],
) -> tuple[float, float, float]:
    ndcg = recall = 0.0
    started = time.perf_counter()
    for query in queries:
        response = http.post(
            f"/v1/knowledge-bases/{kb}/search", json={"query": query["text"], **body}
        )
        response.raise_for_status()
        ranked = unique([external[hit["doc_id"]] for hit in response.json()["hits"]])
        ndcg += ndcg_at(ranked, qrels[query["_id"]])
        recall += recall_at(ranked, qrels[query["_id"]])
    elapsed = (time.perf_counter() - started) / len(queries)
    return ndcg / len(queries), recall / len(queries), elapsed * 1000


def run_as_evaluation(
    http: httpx.Client,
    kb: str,
    queries: list[dict[str, str]],
    qrels: dict[str, dict[str, int]],
    runs: list[tuple[str, dict[str, Any]]],
) -> list[tuple[str, float, float, float]]:
    """The same runs through `POST .../evaluations`: the service searches and scores
    (app/evaluations), this script only uploads the judged set and reads the measures."""
    wanted = {query["_id"] for query in queries}
    body = {
        "name": "scripts/eval",
        "queries": queries,
        "qrels": [
            {"query_id": query_id, "doc_id": doc_id, "score": grade}
            for query_id, grades in qrels.items()
            if query_id in wanted
            for doc_id, grade in grades.items()
        ],
        "configurations": [{"name": name, **options} for name, options in runs],
    }
    created = http.post(f"/v1/knowledge-bases/{kb}/evaluations", json=body)
    created.raise_for_status()
    url = f"/v1/knowledge-bases/{kb}/evaluations/{created.json()['id']}"
    while (evaluation := http.get(url).json())["status"] in ("queued", "running"):
        time.sleep(1)
    if evaluation["status"] != "succeeded":
        raise SystemExit(f"evaluation failed: {evaluation.get('error')}")
    rows = []
    for config in evaluation["results"]["configurations"]:
        measures = config["measures"]
        rows.append(
            (
                config["name"],
                measures["ndcg_at_10"],
                measures["recall_at_100"],
                config["mean_latency_ms"],
            )
        )
        print(
            f"{config['name']:50s} nDCG@10 {measures['ndcg_at_10']:.4f}  "
            f"Recall@100 {measures['recall_at_100']:.4f}  MRR@10 {measures['mrr_at_10']:.4f}  "
            f"{config['mean_latency_ms']:6.1f} ms/query (in the job)"
        )
    return rows


def external_ids(http: httpx.Client, kb: str) -> dict[str, str]:
    found: dict[str, str] = {}
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 200, **({"cursor": cursor} if cursor else {})}
        page = http.get(f"/v1/knowledge-bases/{kb}/documents", params=params).json()
        found.update({doc["id"]: doc["external_id"] for doc in page["items"]})
        cursor = page.get("next_cursor")
        if not cursor:
            return found


RUNS: list[tuple[str, dict[str, Any]]] = [
    ("vector", {"mode": "vector"}),
    ("text", {"mode": "text"}),
    ("hybrid (default: weighted, vector_weight 0.5)", {"mode": "hybrid"}),
    ("hybrid rrf (k=60)", {"mode": "hybrid", "fusion": "rrf"}),
    ("text, websearch syntax (all terms)", {"mode": "text", "text_match": "websearch"}),
]


def main() -> None:
    global DATA
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="a BEIR folder (test split)")
    parser.add_argument("--ingest", choices=["chunks", "documents"], default="documents")
    parser.add_argument(
        "--chunking",
        type=json.loads,
        default={},
        help="knowledge-base chunking settings as JSON, e.g. '{\"context_header\": false}'",
    )
    parser.add_argument("--variant", choices=["int8", "fp32"], default="int8")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--limit-queries", type=int, default=0)
    parser.add_argument(
        "--sample",
        type=int,
        default=0,
        help="this many documents only: judged ones of seeded random queries, then random "
        "others (a quick comparison of settings, not comparable with whole-corpus figures)",
    )
    parser.add_argument("--runs", default="", help="comma-separated run numbers (1-based)")
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    parser.add_argument(
        "--through",
        choices=["search", "evaluations"],
        default="search",
        help="`search`: this script searches and scores; `evaluations`: one POST "
        ".../evaluations, the service runs and scores the queries (arbor's own measures)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        help="keep the server's data here; a later run with the same folder skips ingestion",
    )
    args = parser.parse_args()

    DATA = args.data
    corpus, queries, qrels = load_corpus(), load_queries(), load_qrels()
    # Only judged queries count (BEIR's test files judge every query they list).
    queries = [query for query in queries if query["_id"] in qrels]
    if args.sample:
        corpus, queries, qrels = sample(corpus, queries, qrels, args.sample)
    if args.limit_queries:
        queries = queries[: args.limit_queries]
    runs = list(RUNS)
    if os.environ.get("ARBOR_RERANK_URL"):
        runs.append(("hybrid + rerank (top 50)", {"mode": "hybrid", "rerank": True}))
    if args.runs:
        runs = [runs[int(n) - 1] for n in args.runs.split(",")]
    rows: list[tuple[str, float, float, float]] = []
    with contextlib.ExitStack() as stack:
        data_dir = args.data_dir or Path(
            stack.enter_context(tempfile.TemporaryDirectory(prefix="arbor-eval-"))
        )
        data_dir.mkdir(parents=True, exist_ok=True)
        http = httpx.Client(base_url=stack.enter_context(server(data_dir)), timeout=600)
        suffix = "-".join(f"{k}-{v}" for k, v in sorted(args.chunking.items())).lower()
        name = f"{args.data.name}-{args.ingest}-{args.variant}" + (f"-{suffix}" if suffix else "")
        name += f"-sample-{args.sample}" if args.sample else ""
        existing = http.get(f"/v1/knowledge-bases/{name}")
        ingest_s: float | None = None  # None: ingested by an earlier run (`--data-dir`)
        if existing.status_code == 200:
            kb = existing.json()["id"]
            print(f"reusing knowledge base {name} in {data_dir}", file=sys.stderr)
        else:
            created = http.post(
                "/v1/knowledge-bases",
                json={
                    "name": name,
                    "embedding": {"provider": "local", "variant": args.variant},
                    "chunking": args.chunking,
                },
            )
            created.raise_for_status()
            kb = created.json()["id"]
            started = time.perf_counter()
            if args.ingest == "chunks":
                ingest_chunks(http, kb, corpus, args.batch)
            else:
                ingest_documents(http, kb, corpus)
            ingest_s = time.perf_counter() - started
            print(f"ingested {len(corpus)} documents in {ingest_s:.0f} s", file=sys.stderr)
        refresh_text_statistics(http, kb)
        if args.through == "evaluations":
            rows = run_as_evaluation(http, kb, queries, qrels, runs)
            runs = []
        external = external_ids(http, kb) if runs else {}
        for name, body in runs:
            ndcg, recall, ms = run(http, kb, queries, qrels, external, {"top_k": 100, **body})
            rows.append((name, ndcg, recall, ms))
            print(f"{name:50s} nDCG@10 {ndcg:.4f}  Recall@100 {recall:.4f}  {ms:6.1f} ms/query")
    table = render(rows, args, len(queries), len(corpus), ingest_s)
    print(table)
    if args.write:
        write_section(table, *markers(args.data.name))


def render(
    rows: list[tuple[str, float, float, float]],
    args: argparse.Namespace,
    n: int,
    documents: int,
    ingest_s: float | None,
) -> str:
    how = (
        "one chunk per document, chunk bulk API"
        if args.ingest == "chunks"
        else "JSON text documents through `POST .../documents`, chunked by the pipeline"
    )
    settings = f", chunking `{json.dumps(args.chunking)}`" if args.chunking else ""
    lines = [
        f"## Search quality: BEIR {args.data.name} (`scripts/eval`)",
        "",
        f"{n} test queries, {documents:,} documents; all-MiniLM-L6-v2 ({args.variant}), "
        f"ingested through the HTTP API ({how}{settings}) "
        + ("by an earlier run (`--data-dir`)" if ingest_s is None else f"in {ingest_s:.0f} s")
        + "; top_k 100, candidates 100 per side, every other setting default. "
        "nDCG@10 and Recall@100 as trec_eval computes them; a document ranks at its best chunk.",
        "",
        "| mode | nDCG@10 | Recall@100 | ms/query ("
        + ("in the evaluation job" if args.through == "evaluations" else "HTTP, sequential")
        + ") |",
        "| --- | --- | --- | --- |",
        *[f"| {name} | {ndcg:.4f} | {recall:.4f} | {ms:.1f} |" for name, ndcg, recall, ms in rows],
        "",
        "BM25 on the same corpus: the `scripts/bm25` section below.",
        "",
        f"Command: `scripts/eval --data {args.data} --ingest {args.ingest} "
        f"--variant {args.variant}"
        + (f" --chunking '{json.dumps(args.chunking)}'" if args.chunking else "")
        + (f" --sample {args.sample}" if args.sample else "")
        + (" --through evaluations" if args.through == "evaluations" else "")
        + " --write`.",
    ]
    return "\n".join(lines)


def write_section(table: str, start: str = START, end: str = END) -> None:
    section = f"{start}\n{table}\n{end}"
    current = BENCHMARKS.read_text() if BENCHMARKS.exists() else "# Benchmarks\n"
    if start in current and end in current:
        before, rest = current.split(start, 1)
        _, after = rest.split(end, 1)
        updated = before + section + after
    else:
        updated = current.rstrip("\n") + "\n\n" + section + "\n"
    BENCHMARKS.write_text(updated)


if __name__ == "__main__":
    main()
