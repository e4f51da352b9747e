"""Bulk chunk upsert with supplied 384-d vectors, through the HTTP API of a real server.

Usage: scripts/bench-chunks [--chunks 100000] [--batch 5000] [--defer-index] [--base64]
                            [--clients 1]
Prints chunks/s per request (median) and overall (from the first request sent to the last one
answered, `--clients` requests in flight), JSON encoding on the client excluded. With
`--defer-index` the requests ask the service to rebuild the vector index once after the load,
and the overall figure includes waiting for that build.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.bench_ingest import cpu_seconds, free_port, wait_until_ready  # noqa: E402


def encode_batch(rng: np.random.Generator, start: int, size: int, *, base64_vectors: bool) -> bytes:
    """One request body, encoded before the clock starts (the client's cost is not ours)."""
    vectors = rng.standard_normal((size, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return json.dumps(
        {
            "chunks": [
                {
                    "doc_id": f"doc-{(start + i) // 10}",
                    "chunk_index": (start + i) % 10,
                    "text": f"Synthetic chunk {start + i} about topic {i % 97}.",
                    "vector": (
                        base64.b64encode(vectors[i].astype("<f4").tobytes()).decode()
                        if base64_vectors
                        else vectors[i].tolist()
                    ),
                }
                for i in range(size)
            ]
        }
    ).encode()


def batches(total: int, size: int) -> list[tuple[int, int]]:
    return [(start, min(size, total - start)) for start in range(0, total, size)]


def post(client: httpx.Client, url: str, body: bytes) -> tuple[float, str | None]:
    """Seconds the request took, and the index job it reports."""
    started = time.perf_counter()
    response = client.post(url, content=body, headers={"content-type": "application/json"})
    duration = time.perf_counter() - started
    response.raise_for_status()
    job_id: str | None = response.json().get("index_job_id")
    return duration, job_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=5_000)
    parser.add_argument("--defer-index", action="store_true")
    parser.add_argument(
        "--base64", action="store_true", help="send vectors as base64 float32, not JSON numbers"
    )
    parser.add_argument(
        "--clients", type=int, default=1, help="requests in flight at once (a parallel loader)"
    )
    args = parser.parse_args()

    rng = np.random.default_rng(7)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data_dir = tempfile.mkdtemp(prefix="arbor-bench-chunks-")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        ARBOR_DATA_DIR=data_dir,
        PORT=str(port),
        ARBOR_LOG_LEVEL="warning",
    )
    server = subprocess.Popen([sys.executable, "-m", "app.cli", "serve"], cwd=ROOT, env=env)
    durations: list[float] = []
    load_s = 0.0
    cpu_used: dict[str, float] = {}
    try:
        wait_until_ready(base, server)
        httpx.post(f"{base}/v1/knowledge-bases", json={"name": "bulk"}).raise_for_status()
        url = f"{base}/v1/knowledge-bases/bulk/chunks/bulk"
        if args.defer_index:
            url += "?defer_index=true"
        bodies = [
            encode_batch(
                rng, start, min(args.batch, args.chunks - start), base64_vectors=args.base64
            )
            for start in range(0, args.chunks, args.batch)
        ]
        results: list[tuple[float, str | None]] = []
        with httpx.Client(timeout=300) as client:
            cpu_before = cpu_seconds(server.pid)
            load_started = time.perf_counter()
            with ThreadPoolExecutor(max_workers=args.clients) as pool:
                results = list(pool.map(lambda body: post(client, url, body), bodies))
            load_s = time.perf_counter() - load_started
            cpu_used = {
                name: cpu_seconds(server.pid)[name] - cpu_before[name] for name in cpu_before
            }
            durations = [duration for duration, _ in results]
            job_id = results[-1][1]
            build_s = 0.0
            if job_id is not None:
                started = time.perf_counter()
                while True:
                    job = client.get(f"{base}/v1/knowledge-bases/bulk/jobs/{job_id}").json()
                    if job["status"] not in ("queued", "running"):
                        break
                    time.sleep(0.1)
                assert job["status"] == "succeeded", job
                build_s = time.perf_counter() - started
        count = httpx.get(f"{base}/v1/knowledge-bases/bulk/chunks/count").json()["count"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        shutil.rmtree(data_dir, ignore_errors=True)  # about 0.5 GB per 50,000 chunks
    assert count == args.chunks, count
    rates = [args.batch / d for d in durations]
    mode = "index rebuilt once after the load" if args.defer_index else "index kept up to date"
    encoding = "base64 float32" if args.base64 else "JSON numbers"
    print(
        f"chunks: {args.chunks} in requests of {args.batch} (384-d vectors supplied as "
        f"{encoding}; {mode}; {args.clients} client(s))"
    )
    print("| measure | value |")
    print("| --- | --- |")
    print(f"| median chunks/s per request | {statistics.median(rates):,.0f} |")
    print(
        f"| overall chunks/s (first request sent to last answered) | {args.chunks / load_s:,.0f} |"
    )
    for name, seconds in cpu_used.items():
        print(
            f"| {name} CPU during the load | {seconds:.1f} s ({seconds / load_s:.0%} of a core) |"
        )
    print(f"| median request time | {statistics.median(durations) * 1000:.0f} ms |")
    print("| request times (s) | " + " ".join(f"{d:.1f}" for d in durations) + " |")
    if args.defer_index:
        total = load_s + build_s
        print(f"| index build after the last request | {build_s:.1f} s |")
        print(f"| overall chunks/s, build included | {args.chunks / total:,.0f} |")


if __name__ == "__main__":
    main()
