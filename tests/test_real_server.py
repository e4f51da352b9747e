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
import psutil
import pytest

from tests.auth.helpers import ADMIN_KEY, bearer

RATE_LIMIT = 10


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


def test_serve_with_two_http_processes_and_a_job_process(tmp_path: Path) -> None:
    """ARBOR_HTTP_WORKERS=2: two HTTP processes share the port, one more runs the jobs; an
    upload is ingested and found, a key's rate limit is one budget across the processes, and
    SIGTERM stops every process and the embedded Postgres."""

    data_dir = tmp_path / "data"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        ARBOR_DATA_DIR=str(data_dir),
        PORT=str(port),
        ARBOR_HTTP_WORKERS="2",
        ARBOR_ADMIN_KEY=ADMIN_KEY,
        ARBOR_RATE_LIMIT_PER_MINUTE=str(RATE_LIMIT),
    )
    auth = bearer(ADMIN_KEY)
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve"], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    children: list[psutil.Process] = []
    try:
        wait_ready(base, process, timeout_s=120)
        children = [
            child
            for child in psutil.Process(process.pid).children(recursive=True)
            if child.name() != "postgres"
        ]
        commands = [command_line(child) for child in children]
        assert sum("app.cli worker" in command for command in commands) == 1, commands
        assert sum("multiprocessing" in command for command in commands) >= 2, commands
        created = httpx.post(
            f"{base}/v1/knowledge-bases", json={"name": "demo"}, headers=auth, timeout=10
        )
        assert created.status_code == 201, created.text
        uploaded = httpx.post(
            f"{base}/v1/knowledge-bases/demo/documents",
            params={"wait": "true", "timeout": "60"},
            json={"text": "Basalt columns form as lava cools.", "title": "basalt"},
            headers=auth,
            timeout=90,
        )
        assert uploaded.status_code in (200, 201, 202), uploaded.text
        assert uploaded.json()["status"] == "ready", uploaded.text
        # Either HTTP process answers: each sees the document the job process ingested.
        for _ in range(4):
            found = httpx.post(
                f"{base}/v1/knowledge-bases/demo/search",
                json={"query": "basalt lava", "mode": "text"},
                headers=auth,
                timeout=10,
            ).json()
            assert [hit["doc_title"] for hit in found["hits"]] == ["basalt"]
        # Six requests so far. One connection per request spreads them over both processes;
        # counted per process, each would allow RATE_LIMIT.
        codes = [
            httpx.get(f"{base}/v1/knowledge-bases", headers=auth, timeout=10).status_code
            for _ in range(RATE_LIMIT)
        ]
        assert codes == [200] * (RATE_LIMIT - 6) + [429] * 6, codes
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=90)
        log.close()
    assert code in (0, 128 + signal.SIGTERM), (tmp_path / "server.log").read_text()
    assert children, "no child processes were seen"
    # Every child ends with serve (multiprocessing's resource tracker a moment after it).
    _, alive = psutil.wait_procs(children, timeout=15)
    alive = [child for child in alive if child.status() != psutil.STATUS_ZOMBIE]
    assert not alive, f"children outlived serve: {alive}"
    assert not (data_dir / "pg" / "postmaster.pid").exists()


def command_line(process: psutil.Process) -> str:
    """A child's command line; "" for one that has already exited (a zombie until reaped)."""
    try:
        return " ".join(process.cmdline())
    except (psutil.ZombieProcess, psutil.NoSuchProcess):
        return ""
