"""Sync a folder of N files through a `folder` source and compare with uploading N documents.

Usage: scripts/bench-sync [--files 500]
Prints the first sync's docs/s (run started until every document is ready), as many other
texts uploaded through `documents/batch` (docs/s), and a no-change resync's time, which must stay
under 5 % of the first sync's. The texts come from SciFact when it holds 2N, else they are made
up (a seeded generator); the uploads take other texts than the files, since the same texts would
reuse the sync's vectors.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from scripts.bench_ingest import CORPUS, free_port, wait_until_ready

WORDS = [
    "leave",
    "policy",
    "travel",
    "expense",
    "report",
    "laptop",
    "security",
    "badge",
    "office",
    "holiday",
    "contract",
    "invoice",
    "supplier",
    "audit",
    "training",
    "manager",
    "team",
    "project",
    "deadline",
    "budget",
    "review",
]


def texts(count: int) -> list[tuple[str, str]]:
    if CORPUS.exists():
        with gzip.open(CORPUS, "rt") as lines:
            docs = [json.loads(line) for _, line in zip(range(count), lines, strict=False)]
        found = [(doc["title"], doc["text"]) for doc in docs]
        if len(found) == count:
            return found
    rng = random.Random(7)
    return [
        (f"Note {n}", " ".join(rng.choice(WORDS) for _ in range(150)) + ".") for n in range(count)
    ]


def wait_run(client: httpx.Client, url: str) -> dict[str, object]:
    while True:
        run: dict[str, object] = client.get(url).json()
        if run["status"] in ("succeeded", "failed"):
            return run
        time.sleep(0.1)


def wait_ready(client: httpx.Client, kb: str, expected: int) -> None:
    url = f"/v1/knowledge-bases/{kb}/documents"
    while True:
        done = sum(
            client.get(url, params={"status": status, "limit": 1}).json()["total"]
            for status in ("ready", "failed")
        )
        if done >= expected:
            return
        time.sleep(0.25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=500)
    args = parser.parse_args()
    # Two halves: files to sync, and other texts to upload. The same texts twice would make
    # the second measurement reuse the first's vectors (app/chunks/embedding.py) and look fast.
    both = texts(2 * args.files)
    corpus, others = both[: args.files], both[args.files :]
    folder = Path(tempfile.mkdtemp(prefix="arbor-bench-sync-files-"))
    for n, (title, text) in enumerate(corpus):
        (folder / f"{n // 100:03d}").mkdir(exist_ok=True)
        (folder / f"{n // 100:03d}" / f"doc-{n}.md").write_text(f"# {title}\n\n{text}\n")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data_dir = Path(tempfile.mkdtemp(prefix="arbor-bench-sync-"))
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        ARBOR_DATA_DIR=str(data_dir),
        PORT=str(port),
        ARBOR_LOG_LEVEL="warning",
        ARBOR_SOURCE_ROOTS=str(folder),
    )
    server = subprocess.Popen([sys.executable, "-m", "app.cli", "serve"], cwd=ROOT, env=env)
    try:
        wait_until_ready(base, server)
        with httpx.Client(base_url=base, timeout=600) as client:
            for kb in ("warmup", "synced", "uploaded"):
                client.post("/v1/knowledge-bases", json={"name": kb}).raise_for_status()
            # The model's first batches and the first ingestion's one-off work, outside both
            # measurements.
            client.post(
                "/v1/knowledge-bases/warmup/documents/batch",
                json={"documents": [{"text": f"# Warm-up {n}\n\nWords to embed, number {n}."}
                                    for n in range(32)]},
            ).raise_for_status()  # fmt: skip
            wait_ready(client, "warmup", 32)
            sources = "/v1/knowledge-bases/synced/sources"
            client.post(
                sources, json={"name": "files", "kind": "folder", "path": str(folder)}
            ).raise_for_status()

            started = time.perf_counter()
            run = client.post(f"{sources}/files/sync", json={}).json()
            first_run = wait_run(client, f"{sources}/files/runs/{run['id']}")
            run_s = time.perf_counter() - started
            wait_ready(client, "synced", args.files)
            first_s = time.perf_counter() - started

            started = time.perf_counter()
            run = client.post(f"{sources}/files/sync", json={}).json()
            again = wait_run(client, f"{sources}/files/runs/{run['id']}")
            resync_s = time.perf_counter() - started

            bodies = [
                {"text": f"# {title}\n\n{text}\n", "external_id": f"doc-{n}", "format": "markdown"}
                for n, (title, text) in enumerate(others)
            ]
            started = time.perf_counter()
            for start in range(0, len(bodies), 500):
                client.post(
                    "/v1/knowledge-bases/uploaded/documents/batch",
                    json={"documents": bodies[start : start + 500]},
                ).raise_for_status()
            wait_ready(client, "uploaded", args.files)
            upload_s = time.perf_counter() - started
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        shutil.rmtree(data_dir, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"files: {args.files}")
    print(f"first sync: run {run_s:.2f} s, all ready {first_s:.2f} s, "
          f"{args.files / first_s:.1f} docs/s; counts {first_run['counts']}")  # fmt: skip
    print(f"as many other texts uploaded (documents/batch): {upload_s:.2f} s, "
          f"{args.files / upload_s:.1f} docs/s")  # fmt: skip
    print(f"no-change resync: {resync_s:.3f} s = {100 * resync_s / first_s:.2f} % of the first "
          f"sync; counts {again['counts']}")  # fmt: skip


ROOT = Path(__file__).resolve().parents[1]

if __name__ == "__main__":
    main()
