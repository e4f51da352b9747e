"""What other knowledge bases cost a search: latency and CPU as the database holds more of them.

Every knowledge base has its own partial HNSW index on `chunks`, and Postgres's planner looks
at every index of a table for every mention of it in a statement, whichever knowledge base the
statement names. This starts `arbor serve` (embedded Postgres) on a free port, uploads the
first `--documents` SciFact abstracts into one knowledge base, then adds empty knowledge bases
until the database holds each count of `--kbs`, and at each count measures one client's
hybrid, vector and text searches of that first knowledge base (SciFact claims, top_k 10):
p50 wall time and the CPU the service and Postgres spent per request (as `--http` does). The
searched knowledge base and its answers are the same at every count; only the others grow.

`--data-dir DIR` keeps the server's data; a later run with the same folder reuses it.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.bench_http import (  # noqa: E402
    KB,
    Request,
    Server,
    measure,
    postmaster_pid,
    row,
    upload,
)
from scripts.eval import (  # noqa: E402
    load_corpus,
    load_queries,
    refresh_text_statistics,
    served,
    write_section,
)

START, END = "<!-- search-many-kbs:start -->", "<!-- search-many-kbs:end -->"


def knowledge_base_count(http: httpx.Client) -> int:
    page = http.get("/v1/knowledge-bases", params={"limit": 1}).raise_for_status().json()
    return int(page["total"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=1000, help="abstracts searched")
    parser.add_argument("--kbs", default="1,100,300,1000", help="knowledge bases in the database")
    parser.add_argument("--requests", type=int, default=50, help="searches per mode and count")
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    args = parser.parse_args()
    counts = [int(count) for count in args.kbs.split(",")]
    corpus = load_corpus()[: args.documents]
    claims = [query["text"] for query in load_queries()]
    n = min(args.requests, len(claims) // 3)
    lines = []
    with contextlib.ExitStack() as stack:
        data_dir = args.data_dir or Path(
            stack.enter_context(tempfile.TemporaryDirectory(prefix="arbor-bench-kbs-"))
        )
        data_dir.mkdir(parents=True, exist_ok=True)
        base, server_pid = stack.enter_context(served(data_dir, {}))
        http = stack.enter_context(httpx.Client(base_url=base, timeout=600))
        server = Server("after", base, (server_pid, postmaster_pid(data_dir)), http)
        if http.get(f"/v1/knowledge-bases/{KB}").status_code == 404:
            http.post("/v1/knowledge-bases", json={"name": KB}).raise_for_status()
            upload(http, corpus)
        refresh_text_statistics(http, KB)
        chunks = http.get(f"/v1/knowledge-bases/{KB}").json()["chunk_count"]

        def search(mode: str, first: int, round_: int) -> Request:
            def send(client: httpx.Client, i: int) -> httpx.Response:
                # Claims not seen before at this count: the query vector cache does not help.
                query = claims[(first + i + round_ * 3 * n) % len(claims)] if i >= 0 else f"w {-i}"
                body = {"query": query, "mode": mode, "top_k": 10}
                return client.post(f"/v1/knowledge-bases/{KB}/search", json=body)

            return send

        for round_, count in enumerate(counts):
            existing = knowledge_base_count(http)
            for i in range(existing, count):
                http.post("/v1/knowledge-bases", json={"name": f"other-{i}"}).raise_for_status()
            cells = []
            for index, mode in enumerate(("hybrid", "vector", "text")):
                measure([server], search(mode, index * n, round_), n, n)
                p50, _p99, service_ms, postgres_ms = row(server)
                cells.append(f"{p50:.1f} ({service_ms:.1f} + {postgres_ms:.1f})")
            lines.append(f"| {max(count, existing):,} | " + " | ".join(cells) + " |")
            print(lines[-1], file=sys.stderr)
    table = "\n".join(
        [
            f"SciFact's first {len(corpus):,} abstracts ({chunks:,} chunks) in one knowledge "
            f"base; {n} searches per mode and row, one client, top_k 10. Each cell: p50 ms "
            "(service CPU ms + Postgres CPU ms per search).",
            "",
            "| knowledge bases | hybrid | vector | text |",
            "| --- | --- | --- | --- |",
            *lines,
            "",
            f"Command: `scripts/bench-search --many-kbs --documents {len(corpus)} "
            f"--kbs {args.kbs}`.",
        ]
    )
    print(table)
    if args.write:
        write_section(table, start=START, end=END)


if __name__ == "__main__":
    main()
