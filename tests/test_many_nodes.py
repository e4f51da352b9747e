"""Three `arbor serve` and three `arbor worker` processes on one database, as on six hosts:
documents uploaded through every API are each ingested once, every event reaches a webhook
once, and each sweep runs once a period between them rather than once per process."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any

import asyncpg
import httpx

from app.db.urls import asyncpg_dsn
from tests.fake_openai import KEY_ENV, embedding_setting, serve_in_thread
from tests.test_real_server import free_port, wait_ready
from tests.webhook_receiver import receiving

NODES = 3
DOCUMENTS = 9
DIMENSIONS = 8
SWEEP_EVERY_S = 2.0
# The sweeps every API process runs (app/main.py) and the one every worker runs (app/cli.py).
API_SWEEPS = ("audit pruning", "event pruning", "search analytics pruning", "vector index upkeep")
WORKER_SWEEPS = ("source schedules",)


def start(command: list[str], env: dict[str, str], log: IO[bytes]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", *command], env=env, stdout=log, stderr=subprocess.STDOUT
    )


async def sweep_rounds(url: str) -> dict[str, int]:
    """Each sweep's count of rounds, all processes together."""
    connection = await asyncpg.connect(asyncpg_dsn(url))
    try:
        rows = await connection.fetch("SELECT name, runs FROM periodic_runs")
    finally:
        await connection.close()
    return {row["name"]: int(row["runs"]) for row in rows}


async def read_outcome(url: str) -> tuple[list[asyncpg.Record], int, dict[str, int]]:
    """The ingest jobs, how many chunks exist twice, and each sweep's count of rounds."""
    connection = await asyncpg.connect(asyncpg_dsn(url))
    try:
        jobs = await connection.fetch(
            "SELECT document_id, status, attempts, worker_id FROM jobs WHERE kind = 'ingest'"
        )
        duplicated = await connection.fetchval(
            "SELECT count(*) FROM (SELECT 1 FROM chunks GROUP BY document_id, chunk_index "
            "HAVING count(*) > 1) twice"
        )
        rows = await connection.fetch("SELECT name, runs FROM periodic_runs")
    finally:
        await connection.close()
    return list(jobs), int(duplicated), {row["name"]: int(row["runs"]) for row in rows}


def stopped(process: subprocess.Popen[bytes]) -> int:
    """Its exit code after SIGTERM; killed (and -9) when it outlives the wait."""
    try:
        return process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait()


def get_json(url: str, **params: Any) -> Any:
    response = httpx.get(url, params=params, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


async def test_three_apis_and_three_workers_on_one_database(
    tmp_path: Path, database_url: str
) -> None:
    await asyncio.to_thread(run_nodes, tmp_path, database_url)


def run_nodes(tmp_path: Path, database_url: str) -> None:
    """Start the six processes, upload, wait, check, stop (blocking: in a thread)."""
    embed_port = free_port()
    # Each embedding call takes a moment, so that jobs queued together go to several workers.
    embedder = serve_in_thread(embed_port, dimensions=DIMENSIONS, delay_s=0.2)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBOR_")}
    env.update(
        DATABASE_URL=database_url,
        **{KEY_ENV: "test-key"},
        ARBOR_HOST="127.0.0.1",
        ARBOR_WORKERS="0",  # the APIs only queue; the worker processes run the jobs
        ARBOR_JOB_POLL_S="0.2",
        ARBOR_INGEST_BATCH_SIZE="1",
        ARBOR_WEBHOOK_POLL_S="0.2",
        ARBOR_WEBHOOK_ALLOW_PRIVATE="true",
        ARBOR_HOUSEKEEPING_EVERY_S=str(SWEEP_EVERY_S),
        ARBOR_SOURCE_SCHEDULE_POLL_S=str(SWEEP_EVERY_S),
    )
    ports = [free_port() for _ in range(NODES)]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    log_path = tmp_path / "nodes.log"
    log = log_path.open("wb")
    processes = [start(["serve", "--port", str(port)], env, log) for port in ports]
    processes += [start(["worker", "--concurrency", "1"], env, log) for _ in range(NODES)]
    try:
        for base, process in zip(bases, processes, strict=False):
            wait_ready(base, process, timeout_s=300)
        assert all(p.poll() is None for p in processes), log_path.read_text()[-3000:]
        # Every process has started its sweeps: from here on they share one round a period.
        before, began = asyncio.run(sweep_rounds(database_url)), time.monotonic()
        with receiving() as receiver:
            # Subscribed before anything happens: every event of the feed is for it.
            hook = httpx.post(
                f"{bases[1]}/v1/webhooks", json={"url": f"{receiver.url}/hook"}, timeout=10
            )
            assert hook.status_code == 201, hook.text
            created = httpx.post(
                f"{bases[0]}/v1/knowledge-bases",
                json={
                    "name": "nodes",
                    "embedding": embedding_setting(embed_port, DIMENSIONS),
                },
                timeout=10,
            )
            assert created.status_code == 201, created.text

            def upload(n: int) -> str:
                response = httpx.post(
                    f"{bases[n % NODES]}/v1/knowledge-bases/nodes/documents",
                    json={
                        "text": f"Document {n} is about river {n} and its delta.",
                        "title": f"d{n}",
                    },
                    timeout=30,
                )
                assert response.status_code == 202, response.text
                return str(response.json()["id"])

            with ThreadPoolExecutor(NODES) as pool:
                ids = list(pool.map(upload, range(DOCUMENTS)))
            documents = f"{bases[2]}/v1/knowledge-bases/nodes/documents"
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                listing = get_json(documents, limit=50)["items"]
                if sum(d["status"] in ("ready", "failed") for d in listing) == DOCUMENTS:
                    break
                time.sleep(0.2)
            assert sorted(d["id"] for d in listing) == sorted(ids)
            assert {d["status"] for d in listing} == {"ready"}, listing

            # The feed as any API serves it, and what reached the webhook: each event once.
            feed = get_json(f"{bases[0]}/v1/events", limit=100)["items"]
            ready = [e["subject_id"] for e in feed if e["type"] == "document.ready"]
            assert sorted(ready) == sorted(ids)
            deadline = time.monotonic() + 30
            while len(receiver.received) < len(feed) and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(3 * 0.2)  # a second delivery of anything would arrive by now
            delivered = Counter(r.event["id"] for r in receiver.received)
            assert delivered == Counter(e["id"] for e in feed), receiver.events()

        jobs, duplicated, sweeps = asyncio.run(read_outcome(database_url))
        elapsed = time.monotonic() - began
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        codes = [stopped(process) for process in processes]
        log.close()
        embedder.shutdown()
        embedder.server_close()

    # Every document ingested once: one job each, claimed once, run to the end.
    assert sorted(str(job["document_id"]) for job in jobs) == sorted(ids)
    assert {(job["status"], job["attempts"]) for job in jobs} == {("succeeded", 1)}, jobs
    assert duplicated == 0
    # The jobs went to more than one worker process (three idle ones poll for them).
    assert len({job["worker_id"] for job in jobs}) > 1, jobs
    # One round per period between them all (a process's first round aside, which may still
    # have been on its way): a round per period in each process would be NODES times as many.
    most = elapsed / (SWEEP_EVERY_S * 0.9) + 1 + NODES
    assert set(sweeps) == {*API_SWEEPS, *WORKER_SWEEPS}, sweeps
    rounds = {name: runs - before.get(name, 0) for name, runs in sweeps.items()}
    assert all(1 <= n <= most for n in rounds.values()), (rounds, elapsed)
    assert all(code in (0, 128 + signal.SIGTERM) for code in codes), log_path.read_text()[-3000:]
