"""Bulk chunk upsert with supplied 384-d vectors, through the HTTP API of a real server.

Usage: scripts/bench-chunks [--chunks 100000] [--batch 5000] [--defer-index] [--base64]
Prints chunks/s per request (median) and overall, JSON encoding on the client excluded. With
`--defer-index` the requests ask the service to rebuild the vector index once after the load,
and the overall figure includes waiting for that build.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.bench_ingest import free_port  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=5_000)
    parser.add_argument("--defer-index", action="store_true")
    parser.add_argument(
        "--base64", action="store_true", help="send vectors as base64 float32, not JSON numbers"
    )
    args = parser.parse_args()

    rng = np.random.default_rng(7)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        ARBOR_DATA_DIR=tempfile.mkdtemp(prefix="arbor-bench-chunks-"),
        PORT=str(port),
        ARBOR_LOG_LEVEL="warning",
    )
    server = subprocess.Popen([sys.executable, "-m", "app.cli", "serve"], cwd=ROOT, env=env)
    durations: list[float] = []
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        httpx.post(f"{base}/v1/knowledge-bases", json={"name": "bulk"}).raise_for_status()
        url = f"{base}/v1/knowledge-bases/bulk/chunks/bulk"
        if args.defer_index:
            url += "?defer_index=true"
        job_id = None
        with httpx.Client(timeout=300) as client:
            for start in range(0, args.chunks, args.batch):
                vectors = rng.standard_normal((args.batch, 384)).astype(np.float32)
                vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
                body = json.dumps(
                    {
                        "chunks": [
                            {
                                "doc_id": f"doc-{(start + i) // 10}",
                                "chunk_index": (start + i) % 10,
                                "text": f"Synthetic chunk {start + i} about topic {i % 97}.",
                                "vector": (
                                    base64.b64encode(vectors[i].astype("<f4").tobytes()).decode()
                                    if args.base64
                                    else vectors[i].tolist()
                                ),
                            }
                            for i in range(args.batch)
                        ]
                    }
                ).encode()
                started = time.perf_counter()
                response = client.post(
                    url, content=body, headers={"content-type": "application/json"}
                )
                durations.append(time.perf_counter() - started)
                response.raise_for_status()
                job_id = response.json().get("index_job_id")
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
    assert count == args.chunks, count
    rates = [args.batch / d for d in durations]
    mode = "index rebuilt once after the load" if args.defer_index else "index kept up to date"
    encoding = "base64 float32" if args.base64 else "JSON numbers"
    print(
        f"chunks: {args.chunks} in requests of {args.batch} (384-d vectors supplied as "
        f"{encoding}; {mode})"
    )
    print("| measure | value |")
    print("| --- | --- |")
    print(f"| median chunks/s per request | {statistics.median(rates):,.0f} |")
    print(f"| overall chunks/s (server time) | {args.chunks / sum(durations):,.0f} |")
    print(f"| median request time | {statistics.median(durations) * 1000:.0f} ms |")
    print("| request times (s) | " + " ".join(f"{d:.1f}" for d in durations) + " |")
    if args.defer_index:
        total = sum(durations) + build_s
        print(f"| index build after the last request | {build_s:.1f} s |")
        print(f"| overall chunks/s, build included | {args.chunks / total:,.0f} |")


if __name__ == "__main__":
    main()
