"""What a client sees: latency and CPU per request of reads and searches over HTTP on SciFact.

Starts `arbor serve` (embedded Postgres) on a free port, uploads SciFact's abstracts as JSON
text documents through `documents/batch` with default settings (as a user would), waits until
they are ready and the term statistics are counted, then measures, one client at a time:
`GET` of the knowledge base, of a document and of a job, and hybrid, vector and text search
(top_k 10) with the test claims as queries: p50 and p99 wall time, and the CPU time that the
service process and Postgres spent per request (psutil, so a busy machine inflates the wall
times but hardly the CPU figures). Then 8 clients at once run hybrid searches: QPS and p99.

`--data-dir DIR` keeps the server's data; a later run with the same folder skips the upload.
`--baseline DIR` also serves the same data with the code of another checkout (`git worktree add
DIR <commit>`) and alternates blocks of requests between the two servers, so that both see the
same load on a shared machine: each row then has a before and an after column.
`--api-key` serves with keys required (as in production) and sends every measured request with
a read key of the project, so its lookup is in the figures; without it authentication is off.
`--write` puts the table in docs/benchmarks.md between this script's markers.

Each search row uses its own claims (hybrid the first N, vector the next N, text the last), so a
query vector cached by one row is never reused by another; the concurrent run uses the text
row's claims, new to the embedder.
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
from dataclasses import dataclass, field
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
# `--api-key`: the configured admin key sets the bench up; the measured requests use a read key.
ADMIN_KEY = "arb-bench-admin-key-not-for-production"

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


@dataclass
class Server:
    """One running server: its URL, its process and the Postgres it shares."""

    name: str
    base: str
    pids: tuple[int, int]
    http: httpx.Client
    times: list[float] = field(default_factory=list)
    # Request number -> the hits' (chunk id, score) of a search: both servers must agree.
    hits: dict[int, list[tuple[str, float]]] = field(default_factory=dict)
    service_s: float = 0.0
    postgres_s: float = 0.0


def measure(servers: list[Server], request: Request, n: int, block: int) -> None:
    """`n` requests per server, sequentially, in alternating blocks of `block`: p50 and p99 of
    wall time, and the service's and Postgres's CPU time of each server's blocks."""
    for server in servers:
        server.times, server.service_s, server.postgres_s, server.hits = [], 0.0, 0.0, {}
        for i in range(10):  # warm the connection, the plans and the caches
            request(server.http, -1 - i).raise_for_status()
    for start in range(0, n, block):
        # Each block starts with the other server: neither always runs on caches the other warmed.
        order = servers if (start // block) % 2 == 0 else servers[::-1]
        for server in order:
            before = cpu_seconds(*server.pids)
            for i in range(start, min(n, start + block)):
                started = time.perf_counter()
                response = request(server.http, i).raise_for_status()
                server.times.append((time.perf_counter() - started) * 1000)
                if response.request.method == "POST":
                    found = response.json()["hits"]
                    server.hits[i] = [(hit["chunk_id"], round(hit["score"], 6)) for hit in found]
            after = cpu_seconds(*server.pids)
            server.service_s += after["service"] - before["service"]
            server.postgres_s += after["postgres"] - before["postgres"]


def row(server: Server) -> tuple[float, float, float, float]:
    """p50 ms, p99 ms, service CPU ms and Postgres CPU ms per request."""
    n = len(server.times)
    return (
        statistics.median(server.times),
        statistics.quantiles(server.times, n=100)[98],
        server.service_s * 1000 / n,
        server.postgres_s * 1000 / n,
    )


def many_clients(server: Server, request: Request, n: int, clients: int) -> tuple[float, float]:
    """QPS and p99 ms of `n` requests from `clients` concurrent clients."""
    headers = dict(server.http.headers)

    def run(worker: int) -> list[float]:
        times = []
        with httpx.Client(base_url=server.base, timeout=60, headers=headers) as http:
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
    parser.add_argument("--requests", type=int, default=100, help="per one-client row (<= 100)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--block", type=int, default=10, help="requests per alternating block")
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--baseline", type=Path, help="a checkout of the code to compare")
    parser.add_argument(
        "--baseline-data-dir",
        type=Path,
        help="a copy of --data-dir for the baseline (needed when the migrations differ)",
    )
    parser.add_argument(
        "--api-key", action="store_true", help="keys required; requests carry a read key"
    )
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    keys_env = (
        {"ARBOR_ADMIN_KEY": ADMIN_KEY, "ARBOR_RATE_LIMIT_PER_MINUTE": "0"} if args.api_key else {}
    )

    corpus = load_corpus()
    if args.documents:
        corpus = corpus[: args.documents]
    claims = [query["text"] for query in load_queries()]
    n = min(args.requests, len(claims) // 3)
    with contextlib.ExitStack() as stack:
        data_dir = args.data_dir or Path(
            stack.enter_context(tempfile.TemporaryDirectory(prefix="arbor-bench-http-"))
        )
        data_dir.mkdir(parents=True, exist_ok=True)
        checkouts = [("after", ROOT, data_dir)]
        if args.baseline is not None:
            other = args.baseline_data_dir or data_dir
            checkouts.insert(0, ("before", args.baseline.resolve(), other))
        servers = []
        for name, root, folder in checkouts:
            base, server_pid = stack.enter_context(
                served(folder, keys_env, root=root, log_name=f"server-{name}.log")
            )
            http = stack.enter_context(httpx.Client(base_url=base, timeout=600))
            if args.api_key:
                http.headers["Authorization"] = f"Bearer {ADMIN_KEY}"
            servers.append(Server(name, base, (server_pid, postmaster_pid(folder)), http))
        upload_s = 0.0
        for server in servers:
            http = server.http
            if http.get(f"/v1/knowledge-bases/{KB}").status_code == 404:
                http.post("/v1/knowledge-bases", json={"name": KB}).raise_for_status()
                upload_s = upload(http, corpus)
            refresh_text_statistics(http, KB)
        kb = http.get(f"/v1/knowledge-bases/{KB}").json()
        document = http.get(f"/v1/knowledge-bases/{KB}/documents", params={"limit": 1}).json()
        doc_id = document["items"][0]["id"]  # the same in a copy of the data
        # Each server reads a job of its own data.
        jobs = {
            server.base: server.http.post(
                f"/v1/knowledge-bases/{KB}/text-statistics/refresh"
            ).json()["id"]
            for server in servers
        }
        if args.api_key:
            for server in servers:
                created = server.http.post(
                    "/v1/projects/default/api-keys", json={"name": "bench", "scopes": ["read"]}
                ).raise_for_status()
                server.http.headers["Authorization"] = f"Bearer {created.json()['key']}"

        def search(mode: str, first: int) -> Request:
            def send(client: httpx.Client, i: int) -> httpx.Response:
                # Warm-up requests (i < 0) search a text of their own.
                query = claims[first + i] if i >= 0 else f"warm-up query {-i}"
                body = {"query": query, "mode": mode, "top_k": 10}
                return client.post(f"/v1/knowledge-bases/{KB}/search", json=body)

            return send

        def job_of(client: httpx.Client) -> str:
            return str(jobs[str(client.base_url).rstrip("/")])

        reads: list[tuple[str, Request]] = [
            ("GET knowledge base", lambda c, _i: c.get(f"/v1/knowledge-bases/{KB}")),
            ("GET document", lambda c, _i: c.get(f"/v1/knowledge-bases/{KB}/documents/{doc_id}")),
            ("GET job", lambda c, _i: c.get(f"/v1/knowledge-bases/{KB}/jobs/{job_of(c)}")),
            ("hybrid search", search("hybrid", 0)),
            ("vector search", search("vector", n)),
            ("text search", search("text", 2 * n)),
        ]
        rows = []
        different: dict[str, int] = {}
        for name, request in reads:
            measure(servers, request, n, args.block)
            cells = [row(server) for server in servers]
            differing = sum(servers[0].hits[i] != servers[-1].hits.get(i) for i in servers[0].hits)
            if differing:
                print(
                    f"  {name}: {differing} of {n} searches answered differently", file=sys.stderr
                )
            different[name] = differing
            rows.append(
                f"| {name} | "
                + " | ".join(" / ".join(f"{c[k]:.1f}" for c in cells) for k in range(4))
                + " |"
            )
            print(rows[-1], file=sys.stderr)
        concurrent = [
            many_clients(server, search("hybrid", 2 * n), n, args.concurrency) for server in servers
        ]
    names = " / ".join(server.name for server in servers)
    subset = f" --documents {args.documents}" if args.documents else ""
    compared = " --baseline DIR" if args.baseline is not None else ""
    compared += " --api-key" if args.api_key else ""
    table = "\n".join(
        [
            "## Search over HTTP (`scripts/bench-search --http`)",
            "",
            f"SciFact: {len(corpus):,} abstracts uploaded as JSON documents with defaults "
            f"({kb['chunk_count']:,} chunks; "
            + (f"{upload_s:.0f} s to ready)" if upload_s else "uploaded by an earlier run)")
            + f"; one client, {n} requests per row and server, test claims as queries, "
            "top_k 10; CPU per request from psutil (the service process, and the embedded "
            "Postgres server with its backends)"
            + ("; every request with a read API key" if args.api_key else "; no keys")
            + ". Each cell: "
            f"{names}.",
            "",
            "| request | p50 ms | p99 ms | service CPU ms | Postgres CPU ms |",
            "| --- | --- | --- | --- | --- |",
            *rows,
            "",
            f"{args.concurrency} clients, hybrid search, {n} requests: "
            + " / ".join(f"{qps:.0f} QPS, p99 {p99:.0f} ms" for qps, p99 in concurrent)
            + ".",
            "",
            "Searches answered with other hits or scores (6 decimals) by the two servers: "
            + ", ".join(f"{name} {count}" for name, count in different.items() if "search" in name)
            + "."
            if len(servers) > 1
            else "",
            "",
            f"Command: `scripts/bench-search --http{subset}{compared}`.",
        ]
    )
    print(table)
    if args.write:
        write_section(table, start=START, end=END)


if __name__ == "__main__":
    main()
