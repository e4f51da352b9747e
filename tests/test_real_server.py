"""A new user's first run: the real `arbor serve` process on an empty data dir and a free port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_ready(base: str, process: subprocess.Popen[bytes], timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert process.poll() is None, "server exited during start-up"
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass  # not listening yet
        time.sleep(0.2)
    pytest.fail("server did not become ready in time")


def test_serve_from_empty_data_dir(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(ARBOR_DATA_DIR=str(data_dir), PORT=str(port))
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve"], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, process)
        created = httpx.post(f"{base}/v1/knowledge-bases", json={"name": "demo"}, timeout=10)
        assert created.status_code == 201, created.text
        listed = httpx.get(f"{base}/v1/knowledge-bases", timeout=10).json()
        assert [kb["name"] for kb in listed["items"]] == ["demo"]
        again = httpx.post(f"{base}/v1/knowledge-bases", json={"name": "demo"}, timeout=10)
        assert again.status_code == 409
        assert again.headers["content-type"] == "application/problem+json"
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=30)
        log.close()
    assert code in (0, 128 + signal.SIGTERM), (tmp_path / "server.log").read_text()
    # The embedded Postgres was stopped cleanly: no postmaster.pid left behind.
    assert (data_dir / "pg" / "PG_VERSION").exists()
    assert not (data_dir / "pg" / "postmaster.pid").exists()
