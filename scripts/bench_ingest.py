"""Ingest BEIR SciFact through the HTTP API and compare with the raw embedder on the same chunks.

Usage: scripts/bench-ingest [--limit N] [--concurrency 8] [--batch 1] [--chunking JSON]
       scripts/bench-ingest --formats [--copies 5] [--ocr-pages 3]  (scripts/bench_formats.py)
       scripts/bench-ingest --memory [--sizes 1,5,10] [--kinds text,docx,...]
Prints docs/s, chunks/s, the ratio to the raw embedder's chunks/s on the same chunk texts
(same batch size, measured in the same run after the server stopped; each chunk as the model
read it, context header included), and peak server RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "eval" / "scifact" / "corpus.jsonl.gz"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_ready(base: str, server: subprocess.Popen[bytes], timeout_s: float = 180) -> None:
    """Until the service at `base` answers /readyz; fails if it exits or takes too long."""
    deadline = time.monotonic() + timeout_s
    while True:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit("the server did not become ready")
        time.sleep(0.2)


def load_corpus(limit: int | None) -> list[dict[str, str]]:
    with gzip.open(CORPUS, "rt") as lines:
        docs = [json.loads(line) for line in lines]
    return docs[:limit] if limit else docs


def cpu_seconds(server_pid: int, postmaster_pid: int | None = None) -> dict[str, float]:
    """CPU time used so far by the service's processes (the server and, with
    ARBOR_HTTP_WORKERS > 1, its HTTP and job processes) and by Postgres: the postmaster
    `postmaster_pid` and its children, else every postgres process on the machine (the
    embedded server is not the service's child)."""
    server = psutil.Process(server_pid)
    service = 0.0
    for process in [server, *server.children(recursive=True)]:
        try:
            if process.name() != "postgres":
                times = process.cpu_times()
                service += times.user + times.system
        except psutil.NoSuchProcess:
            continue
    postgres = 0.0
    if postmaster_pid is not None:
        postmaster = psutil.Process(postmaster_pid)
        for process in [postmaster, *postmaster.children()]:
            try:
                times = process.cpu_times()
                postgres += times.user + times.system
            except psutil.NoSuchProcess:
                continue
        return {"service": service, "postgres": postgres}
    for process in psutil.process_iter(["name", "cpu_times"]):
        if process.info["name"] == "postgres" and process.info["cpu_times"] is not None:
            postgres += process.info["cpu_times"].user + process.info["cpu_times"].system
    return {"service": service, "postgres": postgres}


class RssSampler(threading.Thread):
    """Peak resident memory of a process and its children (the server and its Postgres)."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.process = psutil.Process(pid)
        self.peak_app = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                self.peak_app = max(self.peak_app, self.process.memory_info().rss)
            except psutil.Error:
                return
            time.sleep(0.2)


async def upload_all(base: str, docs: list[dict[str, str]], concurrency: int, batch: int) -> None:
    """Upload every document: one request each, or `batch` per request (documents/batch)."""
    semaphore = asyncio.Semaphore(concurrency)
    url = f"{base}/v1/knowledge-bases/scifact/documents"
    bodies = [
        {
            "text": f"{doc['title']}\n\n{doc['text']}",
            "title": doc["title"],
            "external_id": doc["_id"],
            "format": "text",
        }
        for doc in docs
    ]
    async with httpx.AsyncClient(timeout=60) as client:

        async def send(path: str, body: dict[str, object]) -> None:
            async with semaphore:
                response = await client.post(path, json=body)
            if response.status_code not in (200, 202):
                raise RuntimeError(f"upload failed: {response.status_code} {response.text}")

        if batch > 1:
            parts = [bodies[start : start + batch] for start in range(0, len(bodies), batch)]
            await asyncio.gather(*(send(f"{url}/batch", {"documents": part}) for part in parts))
        else:
            await asyncio.gather(*(send(url, body) for body in bodies))


def wait_all_done(base: str, expected: int, timeout_s: float) -> dict[str, int]:
    """Poll until every document is ready or failed: twice a second on one kept-alive
    connection, the failed count every 5 s or when it may complete the total (a poll costs
    the service CPU that the ingestion it measures would otherwise get)."""
    url = f"{base}/v1/knowledge-bases/scifact/documents"
    deadline = time.monotonic() + timeout_s
    failed, polls = 0, 0
    with httpx.Client(timeout=60) as client:

        def count(status: str) -> int:
            total: int = client.get(url, params={"status": status, "limit": 1}).json()["total"]
            return total

        while time.monotonic() < deadline:
            ready = count("ready")
            if ready + failed >= expected or polls % 10 == 0:
                failed = count("failed")
            if ready + failed >= expected:
                return {"ready": ready, "failed": failed}
            polls += 1
            time.sleep(0.5)
    raise RuntimeError("ingestion did not finish in time")


def chunk_texts(base: str, *, header: bool) -> list[str]:
    """What the model read for each chunk of the knowledge base (app/chunks/embedding.py)."""
    from app.chunks.embedding import embedding_input

    texts: list[str] = []
    cursor = None
    while True:
        params: dict[str, str | int] = {"limit": 200}
        if cursor:
            params["cursor"] = cursor
        page = httpx.get(f"{base}/v1/knowledge-bases/scifact/chunks", params=params).json()
        texts += [
            embedding_input(
                item["text"],
                title=item["doc_title"],
                section_titles=item["section_titles"],
                header=header,
            )
            for item in page["items"]
        ]
        cursor = page["next_cursor"]
        if not cursor:
            return texts


def raw_embedder_rate(texts: list[str], batch: int) -> float:
    from app.config import Settings
    from app.embeddings.registry import DEFAULT_LOCAL, build_provider

    provider = build_provider(DEFAULT_LOCAL, model_dir=Settings().model_dir)
    assert provider is not None
    provider.embed_documents(texts[:batch])  # warm-up
    started = time.perf_counter()
    for start in range(0, len(texts), batch):
        provider.embed_documents(texts[start : start + batch])
    return len(texts) / (time.perf_counter() - started)


def main() -> None:
    if "--formats" in sys.argv[1:]:
        # Parsing and chunking of every upload format, in process (scripts/bench_formats.py).
        from bench_formats import main as bench_formats

        bench_formats(sys.argv[1:])
        return
    if "--memory" in sys.argv[1:]:
        # Peak RSS of one document per format and size (scripts/bench_memory.py).
        from bench_memory import main as bench_memory

        bench_memory(sys.argv[1:])
        return
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=None, help="first N documents only")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent HTTP uploads")
    parser.add_argument(
        "--batch", type=int, default=1, help="documents per upload request (documents/batch)"
    )
    parser.add_argument(
        "--chunking",
        type=json.loads,
        default={},
        help="the knowledge base's chunking settings, e.g. '{\"context_header\": false}'",
    )
    args = parser.parse_args()

    docs = load_corpus(args.limit)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    data_dir = Path(tempfile.mkdtemp(prefix="arbor-bench-ingest-"))
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(ARBOR_DATA_DIR=str(data_dir), PORT=str(port), ARBOR_LOG_LEVEL="warning")
    server = subprocess.Popen([sys.executable, "-m", "app.cli", "serve"], cwd=ROOT, env=env)
    try:
        wait_until_ready(base, server)
        created = httpx.post(
            f"{base}/v1/knowledge-bases", json={"name": "scifact", "chunking": args.chunking}
        )
        created.raise_for_status()
        sampler = RssSampler(server.pid)
        sampler.start()
        cpu_before = cpu_seconds(server.pid)
        client_before = time.process_time()
        started = time.perf_counter()
        asyncio.run(upload_all(base, docs, args.concurrency, args.batch))
        uploaded = time.perf_counter() - started
        outcome = wait_all_done(base, len(docs), timeout_s=3600)
        elapsed = time.perf_counter() - started
        cpu_after = cpu_seconds(server.pid)
        cpu_after["client (this script)"] = time.process_time() - client_before
        cpu_before["client (this script)"] = 0.0
        sampler.stop.set()
        texts = chunk_texts(base, header=args.chunking.get("context_header") is not False)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        shutil.rmtree(data_dir, ignore_errors=True)
    workers = int(env.get("ARBOR_WORKERS", "4"))
    batch = int(env.get("ARBOR_EMBED_BATCH_SIZE", "32"))
    raw = raw_embedder_rate(texts, batch)
    ingest_rate = len(texts) / elapsed
    lengths = [len(t) for t in texts]
    print(f"documents: {len(docs)} ({outcome['ready']} ready, {outcome['failed']} failed)")
    print(f"chunks: {len(texts)} (median {statistics.median(lengths):.0f} chars)")
    print(
        f"settings: workers={workers} embed_batch_size={batch} uploads={args.concurrency} "
        f"documents per upload request={args.batch} chunking={json.dumps(args.chunking)}"
    )
    print("| measure | value |")
    print("| --- | --- |")
    print(f"| upload phase (202s returned) | {uploaded:.1f} s |")
    print(f"| ingest wall time (first upload to last ready) | {elapsed:.1f} s |")
    print(f"| documents/s | {len(docs) / elapsed:.1f} |")
    print(f"| chunks/s through the API | {ingest_rate:.1f} |")
    print(f"| raw embedder chunks/s, same chunks, batch {batch} | {raw:.1f} |")
    print(f"| ratio ingest / raw | {ingest_rate / raw:.2f} |")
    for name in cpu_before:
        used = cpu_after[name] - cpu_before[name]
        print(
            f"| {name} CPU | {used:.1f} s ({used / elapsed:.0%} of a core, "
            f"{used / len(docs) * 1000:.0f} ms per document) |"
        )
    print(f"| peak RSS of the server process | {sampler.peak_app / 2**20:.0f} MiB |")


if __name__ == "__main__":
    main()
