"""kill -9 the server in the middle of an ingestion; after a restart the document is ready once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import httpx

from tests.fake_openai import KEY_ENV, embedding_setting, serve_in_thread
from tests.test_real_server import free_port, wait_ready

DIMENSIONS = 8


def start_server(data_dir: Path, port: int, log: IO[bytes]) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        ARBOR_DATA_DIR=str(data_dir),
        PORT=str(port),
        ARBOR_JOB_LEASE_S="2",
        ARBOR_JOB_POLL_S="0.2",
        ARBOR_EMBED_BATCH_SIZE="4",
        **{KEY_ENV: "test-key"},
    )
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def test_kill_minus_nine_mid_ingestion(tmp_path: Path) -> None:
    embed_port = free_port()
    embedder = serve_in_thread(embed_port, dimensions=DIMENSIONS, delay_s=0.15)
    data_dir = tmp_path / "data"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = tmp_path / "server.log"
    log = log_path.open("wb")
    server = start_server(data_dir, port, log)
    try:
        wait_ready(base, server)
        kb = httpx.post(
            f"{base}/v1/knowledge-bases",
            json={
                "name": "crash",
                "embedding": embedding_setting(embed_port, DIMENSIONS),
            },
            timeout=10,
        )
        assert kb.status_code == 201, kb.text
        text = "\n\n".join(
            f"Paragraph {i} is about subject {i} and has enough words to stand alone as a "
            f"chunk of its own in this document, number {i}."
            for i in range(60)
        )
        documents = f"{base}/v1/knowledge-bases/crash/documents"
        created = httpx.post(
            documents, json={"text": text, "title": "Long", "format": "text"}, timeout=10
        )
        assert created.status_code == 202, created.text
        doc_url = f"{documents}/{created.json()['id']}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            progress = httpx.get(doc_url, timeout=5).json()["progress"]
            if progress["stage"] == "embedding" and progress["chunks_embedded"] > 0:
                break
            time.sleep(0.05)
        assert progress["stage"] == "embedding", progress
        assert progress["chunks_embedded"] < progress["chunks_total"]
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)

        server = start_server(data_dir, port, log)
        wait_ready(base, server)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            document = httpx.get(doc_url, timeout=5).json()
            if document["status"] in ("ready", "failed"):
                break
            time.sleep(0.2)
        assert document["status"] == "ready", document
        assert document["chunk_count"] == document["progress"]["chunks_total"]
        assert document["embedded_count"] == document["chunk_count"]
        assert document["progress"]["attempts"] == 2
        count = httpx.get(f"{base}/v1/knowledge-bases/crash/chunks/count", timeout=5).json()
        assert count["count"] == document["chunk_count"]
        listing = httpx.get(documents, timeout=5).json()
        assert listing["total"] == 1
        chunks = httpx.get(f"{doc_url}/chunks", params={"limit": 200}, timeout=5).json()["items"]
        assert [c["chunk_index"] for c in chunks] == list(range(document["chunk_count"]))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        embedder.shutdown()
        embedder.server_close()
        log.close()
    assert not (data_dir / "pg" / "postmaster.pid").exists(), log_path.read_text()[-3000:]
