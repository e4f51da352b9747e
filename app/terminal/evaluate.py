"""`arbor eval BEIR_DIR --kb NAME`: retrieval quality of a knowledge base on a BEIR data set.

A BEIR folder holds `corpus.jsonl` (`_id`, `title`, `text`), `queries.jsonl` (`_id`, `text`)
and `qrels/<split>.tsv` (query-id, corpus-id, score, with a header), each file optionally
gzipped (`.jsonl.gz`; `qrels-<split>.tsv` is read too). Documents are matched to the corpus by
external id: `--ingest` uploads the corpus that way first (documents already there are kept).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import httpx
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from app.terminal.api import CliError, add_connection_flags, checked, client, pages
from app.terminal.metrics import ndcg_at, recall_at, reciprocal_rank, unique
from app.tools.dispatch import segment

# documents/batch takes up to 1,000 documents; smaller batches keep each request short.
INGEST_BATCH = 100


def _open(folder: Path, *names: str) -> IO[str]:
    for name in names:
        for candidate in (folder / name, folder / f"{name}.gz"):
            if candidate.exists():
                if candidate.suffix == ".gz":
                    return gzip.open(candidate, "rt", encoding="utf-8")
                return candidate.open(encoding="utf-8")
    raise CliError(f"{folder} has none of {', '.join(names)} (a BEIR folder?)")


def _jsonl(stream: IO[str]) -> Iterator[dict[str, Any]]:
    with stream:
        for line in stream:
            if line.strip():
                yield json.loads(line)


def load(
    folder: Path, split: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, dict[str, int]]]:
    """Corpus, the queries that have judgements in `split`, and those judgements."""
    corpus = list(_jsonl(_open(folder, "corpus.jsonl")))
    qrels: dict[str, dict[str, int]] = {}
    with _open(folder, f"qrels/{split}.tsv", f"qrels-{split}.tsv") as rows:
        reader = csv.reader(rows, delimiter="\t")
        for row in reader:
            if len(row) < 3 or not row[2].strip().lstrip("-").isdigit():
                continue  # the header, or a blank line
            qrels.setdefault(row[0], {})[row[1]] = int(row[2])
    queries = [q for q in _jsonl(_open(folder, "queries.jsonl")) if str(q["_id"]) in qrels]
    return corpus, queries, qrels


def _ingest(http: httpx.Client, kb: str, corpus: list[dict[str, Any]], console: Console) -> int:
    path = f"/v1/knowledge-bases/{segment(kb)}/documents"
    present = {doc["external_id"] for doc in pages(http, path) if doc.get("external_id")}
    todo = [doc for doc in corpus if str(doc["_id"]) not in present]
    with Progress(console=console, disable=not console.is_terminal) as progress:
        task = progress.add_task("ingesting corpus", total=len(todo))
        for start in range(0, len(todo), INGEST_BATCH):
            batch = todo[start : start + INGEST_BATCH]
            documents = [
                {
                    "text": f"{doc.get('title', '')}\n\n{doc['text']}".strip(),
                    "title": doc.get("title") or str(doc["_id"]),
                    "external_id": str(doc["_id"]),
                }
                for doc in batch
            ]
            checked(http.post(f"{path}/batch", json={"documents": documents}))
            progress.advance(task, len(batch))
    # The batch route queues ingestion: wait until nothing of this knowledge base is pending.
    deadline = time.monotonic() + 3600
    while time.monotonic() < deadline:
        pending = [d for d in pages(http, path) if d["status"] not in ("ready", "failed")]
        if not pending:
            return len(todo)
        time.sleep(1)
    raise CliError("ingestion did not finish within an hour")


def run(args: argparse.Namespace) -> None:
    console = Console(stderr=True)
    corpus, queries, qrels = load(Path(args.folder), args.split)
    if args.limit:
        queries = queries[: args.limit]
    if not queries:
        raise CliError(f"no query of {args.folder} has judgements in the {args.split!r} split")
    depth = max(args.k, args.recall_k)
    totals = {"ndcg": 0.0, "recall": 0.0, "mrr": 0.0}
    with client(args) as http:
        ingested = _ingest(http, args.kb, corpus, console) if args.ingest else 0
        path = f"/v1/knowledge-bases/{segment(args.kb)}/documents"
        external = {doc["id"]: doc.get("external_id") for doc in pages(http, path)}
        started = time.perf_counter()
        with Progress(console=console, disable=not console.is_terminal) as progress:
            task = progress.add_task("queries", total=len(queries))
            for query in queries:
                found = checked(
                    http.post(
                        f"/v1/knowledge-bases/{segment(args.kb)}/search",
                        json={"query": query["text"], "top_k": depth, "mode": args.mode},
                    )
                )
                ranked = unique([str(external.get(hit["doc_id"])) for hit in found["hits"]])
                judged = qrels[str(query["_id"])]
                totals["ndcg"] += ndcg_at(ranked, judged, args.k)
                totals["recall"] += recall_at(ranked, judged, args.recall_k)
                totals["mrr"] += reciprocal_rank(ranked, judged, args.k)
                progress.advance(task)
        elapsed_ms = (time.perf_counter() - started) * 1000 / len(queries)
    result = {
        "queries": len(queries),
        "ingested": ingested,
        "mode": args.mode,
        f"ndcg@{args.k}": totals["ndcg"] / len(queries),
        f"recall@{args.recall_k}": totals["recall"] / len(queries),
        f"mrr@{args.k}": totals["mrr"] / len(queries),
        "ms_per_query": elapsed_ms,
    }
    if args.json:
        print(json.dumps(result))
        return
    table = Table("metric", "value")
    for name, value in result.items():
        table.add_row(name, f"{value:.4f}" if isinstance(value, float) else str(value))
    Console(file=sys.stdout).print(table)


def register(commands: Any) -> None:
    evaluating = commands.add_parser(
        "eval", help="nDCG, recall and MRR of a knowledge base on a BEIR folder"
    )
    evaluating.add_argument("folder", help="BEIR folder (corpus.jsonl, queries.jsonl, qrels/)")
    evaluating.add_argument("--kb", required=True, help="knowledge base name or id")
    evaluating.add_argument("--split", default="test", help="qrels split (default test)")
    evaluating.add_argument("--mode", choices=("hybrid", "vector", "text"), default="hybrid")
    evaluating.add_argument("--k", type=int, default=10, help="cut-off of nDCG and MRR")
    evaluating.add_argument("--recall-k", type=int, default=100, help="cut-off of recall")
    evaluating.add_argument("--limit", type=int, default=0, help="only the first N queries")
    evaluating.add_argument(
        "--ingest", action="store_true", help="upload the corpus first (missing documents)"
    )
    evaluating.add_argument("--json", action="store_true", help="print the metrics as JSON")
    add_connection_flags(evaluating)
    evaluating.set_defaults(handler=run)
