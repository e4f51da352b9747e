"""What a client sees: latency and CPU per request of reads and searches over HTTP on SciFact.

Starts `arbor serve` (embedded Postgres) on a free port, uploads SciFact's abstracts as JSON
text documents through `documents/batch` with default settings (as a user would), waits until
they are ready and the term statistics are counted, then measures, one client at a time:
`GET` of the knowledge base, of a document and of a job, and hybrid, vector and text search
(top_k 10) with the test claims as queries: p50 and p99 wall time, and the CPU time that the
service process and Postgres spent per request (psutil, so a busy machine inflates the wall
times but hardly the CPU figures). Then 8 clients at once run hybrid searches: QPS and p99.

`--data-dir DIR` keeps the server's data; a later run with the same folder skips the upload.
`--write` puts the table in docs/benchmarks.md between this script's markers.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.bench_ingest import cpu_seconds  # noqa: E402
from scripts.eval import (  # noqa: E402
    load_corpus,
    load_queries,
    refresh_text_statistics,
    served,
    write_section,
)

START, END = "<!-- search-http:start -->", "<!-- search-http:end -->"
KB = "scifact-http"
BATCH = 250

Request = Callable[[httpx.Client, int], httpx.Response]


def upload(http: httpx.Client, corpus: list[dict[str, Any]]) -> float:
    """Upload the corpus in batches and wait until no document is queued or running."""
    started = time.perf_counter()
    for start in range(0, len(corpus), BATCH):
        documents = [
            {"text": doc["text"], "title": doc["title"] or None, "external_id": doc["_id"]}
            for doc in corpus[start : start + BATCH]
        ]
        response = http.post(
            f"/v1/knowledge-bases/{KB}/documents/batch", json={"documents": documents}
        )
        response.raise_for_status()
    while True:
        pending = 0
        for status in ("queued", "parsing", "chunking", "embedding"):
            page = http.get(
                f"/v1/knowledge-bases/{KB}/documents", params={"status": status, "limit": 1}
            )
            page.raise_for_status()
            pending += page.json()["total"]
        if pending == 0:
            return time.perf_counter() - started
        print(f"  {pending} documents still ingesting", file=sys.stderr)
        time.sleep(5)


def postmaster_pid(data_dir: Path) -> int:
    """The embedded Postgres of the server with data in `data_dir` (its first pid file line)."""
    return int((data_dir / "pg" / "postmaster.pid").read_text().split()[0])


def one_client(
    http: httpx.Client, pids: tuple[int, int], request: Request, n: int
) -> tuple[float, float, float, float]:
    """p50 ms, p99 ms, service CPU ms and Postgres CPU ms per request, sequentially."""
    for i in range(10):  # warm the connection, the plans and the caches
        request(http, i).raise_for_status()
    before = cpu_seconds(*pids)
    times = []
    for i in range(n):
        started = time.perf_counter()
        request(http, i).raise_for_status()
        times.append((time.perf_counter() - started) * 1000)
    after = cpu_seconds(*pids)
    cut = statistics.quantiles(times, n=100)
    return (
        statistics.median(times),
        cut[98],
        (after["service"] - before["service"]) * 1000 / n,
        (after["postgres"] - before["postgres"]) * 1000 / n,
    )


def many_clients(base: str, request: Request, n: int, clients: int) -> tuple[float, float]:
    """QPS and p99 ms of `n` requests from `clients` concurrent clients."""

    def run(worker: int) -> list[float]:
        times = []
        with httpx.Client(base_url=base, timeout=60) as http:
            for i in range(worker, n, clients):
                started = time.perf_counter()
                request(http, i).raise_for_status()
                times.append((time.perf_counter() - started) * 1000)
        return times

    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        times = [t for each in pool.map(run, range(clients)) for t in each]
    elapsed = time.perf_counter() - started
    return len(times) / elapsed, statistics.quantiles(times, n=100)[98]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=0, help="first N abstracts (0: all)")
    parser.add_argument("--requests", type=int, default=300, help="per one-client row")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()

    corpus = load_corpus()
    if args.documents:
        corpus = corpus[: args.documents]
    claims = [query["text"] for query in load_queries()]
    with contextlib.ExitStack() as stack:
        data_dir = args.data_dir or Path(
            stack.enter_context(tempfile.TemporaryDirectory(prefix="arbor-bench-http-"))
        )
        data_dir.mkdir(parents=True, exist_ok=True)
        base, server_pid = stack.enter_context(served(data_dir))
        http = stack.enter_context(httpx.Client(base_url=base, timeout=600))
        pids = (server_pid, postmaster_pid(data_dir))
        upload_s = 0.0
        if http.get(f"/v1/knowledge-bases/{KB}").status_code == 404:
            http.post("/v1/knowledge-bases", json={"name": KB}).raise_for_status()
            upload_s = upload(http, corpus)
        refresh_text_statistics(http, KB)
        kb = http.get(f"/v1/knowledge-bases/{KB}").json()
        document = http.get(f"/v1/knowledge-bases/{KB}/documents", params={"limit": 1}).json()
        doc_id = document["items"][0]["id"]
        job_id = http.post(f"/v1/knowledge-bases/{KB}/text-statistics/refresh").json()["id"]

        def search(mode: str) -> Request:
            def send(client: httpx.Client, i: int) -> httpx.Response:
                body = {"query": claims[i % len(claims)], "mode": mode, "top_k": 10}
                return client.post(f"/v1/knowledge-bases/{KB}/search", json=body)

            return send

        reads: list[tuple[str, Request]] = [
            ("GET knowledge base", lambda c, _i: c.get(f"/v1/knowledge-bases/{KB}")),
            ("GET document", lambda c, _i: c.get(f"/v1/knowledge-bases/{KB}/documents/{doc_id}")),
            ("GET job", lambda c, _i: c.get(f"/v1/knowledge-bases/{KB}/jobs/{job_id}")),
            ("hybrid search", search("hybrid")),
            ("vector search", search("vector")),
            ("text search", search("text")),
        ]
        rows = []
        for name, request in reads:
            p50, p99, service_ms, postgres_ms = one_client(http, pids, request, args.requests)
            rows.append(
                f"| {name} | {p50:.1f} | {p99:.1f} | {service_ms:.1f} | {postgres_ms:.1f} |"
            )
            print(rows[-1], file=sys.stderr)
        qps, p99 = many_clients(base, search("hybrid"), args.requests * 2, args.concurrency)
    subset = f" --documents {args.documents}" if args.documents else ""
    table = "\n".join(
        [
            "## Requests over HTTP (`scripts/bench-search --http`)",
            "",
            f"SciFact: {len(corpus):,} abstracts uploaded as JSON documents with defaults "
            f"({kb['chunk_count']:,} chunks; {upload_s:.0f} s to ready when uploaded by this "
            f"run); one client, {args.requests} requests per row, test claims as queries, "
            "top_k 10; CPU per request from psutil (the service process, and the embedded "
            "Postgres server with its backends).",
            "",
            "| request | p50 ms | p99 ms | service CPU ms | Postgres CPU ms |",
            "| --- | --- | --- | --- | --- |",
            *rows,
            "",
            f"{args.concurrency} clients, hybrid search: {qps:.0f} QPS, p99 {p99:.0f} ms.",
            "",
            f"Command: `scripts/bench-search --http{subset}`.",
        ]
    )
    print(table)
    if args.write:
        write_section(table, start=START, end=END)


if __name__ == "__main__":
    main()
