"""The embedded server applies its settings on a fresh data directory, in both modes."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import asyncpg
import pytest

from app.db.embedded import MAX_FILES_PER_PROCESS, EmbeddedPostgres
from app.db.urls import asyncpg_dsn


async def setting(url: str, name: str) -> str:
    connection = await asyncpg.connect(asyncpg_dsn(url))
    try:
        value: str = await connection.fetchval(f"SHOW {name}")
        return value
    finally:
        await connection.close()


@pytest.mark.parametrize("delete_on_close", [False, True])
async def test_fresh_data_directory_gets_its_settings(
    tmp_path: Path, delete_on_close: bool
) -> None:
    pgdata = tmp_path / "pg"
    server = EmbeddedPostgres(pgdata, delete_on_close=delete_on_close, shared_buffers="144MB")
    url = server.start()
    try:
        # The restart that applies the setting must not re-create the directory (in "delete"
        # mode it once did, and the server ran with initdb's 128MB).
        assert await setting(url, "shared_buffers") == "144MB"
        # Every knowledge base's index is a file the planner opens per search: more than
        # Postgres's default of 1,000 stay open.
        assert await setting(url, "max_files_per_process") == str(MAX_FILES_PER_PROCESS)
    finally:
        server.stop()
    assert pgdata.exists() is not delete_on_close


async def test_a_killed_server_is_started_again_with_its_data(tmp_path: Path) -> None:
    server = EmbeddedPostgres(tmp_path / "pg", shared_buffers="128MB")
    url = server.start()
    server.watch(every_s=0.1)
    try:
        connection = await asyncpg.connect(asyncpg_dsn(url))
        await connection.execute("CREATE TABLE kept AS SELECT 42 AS answer")
        pid = await connection.fetchval("SELECT pg_backend_pid()")
        await connection.close()
        os.kill(server._server.get_pid(), signal.SIGKILL)  # the OOM killer, say
        deadline = time.monotonic() + 30
        while True:
            try:
                connection = await asyncpg.connect(asyncpg_dsn(url))
                break
            except (OSError, asyncpg.PostgresError):
                assert time.monotonic() < deadline, "the watch did not start the server again"
                await asyncio.sleep(0.2)
        try:
            assert await connection.fetchval("SELECT answer FROM kept") == 42
            assert await connection.fetchval("SELECT pg_backend_pid()") != pid
        finally:
            await connection.close()
    finally:
        server.stop()
