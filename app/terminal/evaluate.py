"""`arbor eval BEIR_DIR --kb NAME`: retrieval quality of a knowledge base on a BEIR data set,
measured by the server (`POST .../evaluations`, docs/operations.md) with the caller's rights.

A BEIR folder holds `corpus.jsonl` (`_id`, `title`, `text`), `queries.jsonl` (`_id`, `text`)
and `qrels/<split>.tsv` (query-id, corpus-id, score, with a header), each file optionally
gzipped (`.jsonl.gz`; `qrels-<split>.tsv` is read too). Documents are matched to the corpus by
external id: `--ingest` uploads the corpus that way first (documents already there are kept).
"""

from __future__ import annotations

import argparse
import contextlib
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


def _body(
    args: argparse.Namespace,
    queries: list[dict[str, Any]],
    qrels: dict[str, dict[str, int]],
) -> dict[str, Any]:
    """The evaluation to post: the queries, their judgments, one configuration per mode."""
    asked = {str(query["_id"]) for query in queries}
    return {
        "name": args.name or Path(args.folder).name,
        "queries": [{"_id": str(query["_id"]), "text": query["text"]} for query in queries],
        "qrels": [
            {"query_id": query_id, "doc_id": doc_id, "score": score}
            for query_id, judged in qrels.items()
            if query_id in asked
            for doc_id, score in judged.items()
        ],
        "configurations": [{"name": mode, "mode": mode} for mode in args.mode or ["hybrid"]],
    }


def _wait(http: httpx.Client, location: str, console: Console) -> dict[str, Any]:
    """Poll the evaluation job until it has finished."""
    with console.status("evaluating", spinner="dots") if console.is_terminal else _quiet():
        while True:
            evaluation: dict[str, Any] = checked(http.get(location))
            if evaluation["status"] not in ("queued", "running"):
                return evaluation
            time.sleep(1)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    yield


def run(args: argparse.Namespace) -> None:
    """Upload the corpus if asked, then measure through `POST .../evaluations` (the server
    searches with this key's rights and computes the measures as pytrec_eval does)."""
    console = Console(stderr=True)
    corpus, queries, qrels = load(Path(args.folder), args.split)
    if args.limit:
        queries = queries[: args.limit]
    if not queries:
        raise CliError(f"no query of {args.folder} has judgements in the {args.split!r} split")
    with client(args) as http:
        ingested = _ingest(http, args.kb, corpus, console) if args.ingest else 0
        path = f"/v1/knowledge-bases/{segment(args.kb)}/evaluations"
        posted = checked(http.post(path, json=_body(args, queries, qrels)))
        evaluation = _wait(http, f"{path}/{posted['id']}", console)
    if evaluation["status"] != "succeeded":
        raise CliError(f"the evaluation failed: {evaluation.get('error')}")
    results = evaluation["results"]
    configurations = [
        {
            "name": config["name"],
            "ndcg@10": config["measures"]["ndcg_at_10"],
            "recall@10": config["measures"]["recall_at_10"],
            "recall@100": config["measures"]["recall_at_100"],
            "mrr@10": config["measures"]["mrr_at_10"],
            "ms_per_query": config["mean_latency_ms"],
        }
        for config in results["configurations"]
    ]
    if args.json:
        # One mode: its measures at the top level too, for scripts that ask for one.
        summary = {
            "evaluation": evaluation["id"],
            "queries": results["queries_evaluated"],
            "ingested": ingested,
            **(configurations[0] if len(configurations) == 1 else {}),
            "configurations": configurations,
        }
        print(json.dumps(summary))
        return
    table = Table("configuration", "nDCG@10", "Recall@10", "Recall@100", "MRR@10", "ms/query")
    for row in configurations:
        table.add_row(
            str(row["name"]),
            *(f"{row[key]:.4f}" for key in ("ndcg@10", "recall@10", "recall@100", "mrr@10")),
            f"{row['ms_per_query']:.1f}",
        )
    out = Console(file=sys.stdout)
    out.print(f"evaluation {evaluation['id']}: {results['queries_evaluated']} queries")
    out.print(table)


def register(commands: Any) -> None:
    evaluating = commands.add_parser(
        "eval", help="nDCG, recall and MRR of a knowledge base on a BEIR folder"
    )
    evaluating.add_argument("folder", help="BEIR folder (corpus.jsonl, queries.jsonl, qrels/)")
    evaluating.add_argument("--kb", required=True, help="knowledge base name or id")
    evaluating.add_argument("--split", default="test", help="qrels split (default test)")
    evaluating.add_argument(
        "--mode",
        choices=("hybrid", "vector", "text"),
        action="append",
        help="search mode; repeat to compare several (default hybrid)",
    )
    evaluating.add_argument("--name", help="the evaluation's name (default: the folder's)")
    evaluating.add_argument("--limit", type=int, default=0, help="only the first N queries")
    evaluating.add_argument(
        "--ingest", action="store_true", help="upload the corpus first (missing documents)"
    )
    evaluating.add_argument("--json", action="store_true", help="print the metrics as JSON")
    add_connection_flags(evaluating)
    evaluating.set_defaults(handler=run)
