"""A real `arbor serve` process and a headless Debian chromium for the console's browser tests.

Without chromium and chromedriver the tests fail (scripts/browser-deps installs them); they
never skip. ARBOR_UI_SCREENSHOTS names a folder for screenshots of each screen
(`scripts/screenshots` points it at docs/ui).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from app.db.urls import asyncpg_dsn
from tests.auth.helpers import ADMIN_KEY
from tests.conftest import TEMPLATE_DB, with_database
from tests.fake_openai import ChatReply, FakeChat, serve_in_thread
from tests.test_real_server import free_port, wait_ready

WIDTH, HEIGHT = 1280, 900
ANSWER = "Obsidian is volcanic glass with sharp conchoidal edges [1]."


async def _create_database(pg_url: str) -> str:
    name = f"arbor_ui_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(asyncpg_dsn(pg_url))
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE_DB}")
    finally:
        await admin.close()
    return name


async def _drop_database(pg_url: str, name: str) -> None:
    admin = await asyncpg.connect(asyncpg_dsn(pg_url))
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


def start_server(
    database_url: str, log_path: Path, **env_vars: str
) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    # Only what the test names: no ARBOR_* or DATABASE_URL of the shell running the tests.
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("ARBOR_") and k != "DATABASE_URL"
    }
    env.update(
        DATABASE_URL=database_url,
        PORT=str(port),
        ARBOR_HOST="127.0.0.1",
        ARBOR_ENV="test",
        ARBOR_WORKERS="2",
        ARBOR_RATE_LIMIT_PER_MINUTE="0",
        **env_vars,
    )
    # The child keeps its own descriptor of the log; ours closes at once.
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    wait_ready(base, process, timeout_s=120)
    return base, process


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def _chat_reply(body: dict[str, Any]) -> ChatReply:
    # The answer is streamed; the question's analysis (one JSON object) is not.
    if body.get("stream"):
        return ChatReply(ANSWER)
    return ChatReply('{"entities": ["obsidian"], "intent": "factual"}')


@pytest.fixture(scope="module")
def console_llm() -> Iterator[FakeChat]:
    """The suite's fake OpenAI-compatible chat server, answering every question with ANSWER."""
    chat = FakeChat(responder=_chat_reply)
    server = serve_in_thread(0, chat=chat)
    chat.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    yield chat
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
async def console_url(
    pg_url: str,
    template_url: str,
    console_llm: FakeChat,
    tmp_path_factory: pytest.TempPathFactory,
) -> AsyncIterator[str]:
    """A server with keys required (the configured admin key), on a fresh database."""
    name = await _create_database(pg_url)
    log_path = tmp_path_factory.mktemp("console") / "server.log"
    base, process = start_server(
        with_database(pg_url, name),
        log_path,
        ARBOR_AUTH="on",
        ARBOR_ADMIN_KEY=ADMIN_KEY,
        ARBOR_LLM_BASE_URL=console_llm.base_url,
        ARBOR_LLM_MODEL="fake-chat",
    )
    try:
        yield base
    finally:
        stop_server(process)
        await _drop_database(pg_url, name)


@pytest.fixture(scope="module")
async def open_console_url(
    pg_url: str, template_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[str]:
    """A server with auth off (a loopback bind, no admin key)."""
    name = await _create_database(pg_url)
    log_path = tmp_path_factory.mktemp("console-open") / "server.log"
    base, process = start_server(with_database(pg_url, name), log_path, ARBOR_AUTH="off")
    try:
        yield base
    finally:
        stop_server(process)
        await _drop_database(pg_url, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    chromium = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        pytest.fail(
            "the console's browser tests need Debian's chromium and chromium-driver: "
            "run scripts/browser-deps as root, or apt-get install chromium chromium-driver"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root, where chromium's sandbox cannot start
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={WIDTH},{HEIGHT}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_window_size(WIDTH, HEIGHT)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wanted = os.environ.get("ARBOR_UI_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path_factory.mktemp("screens")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
