"""The embedded server applies its shared_buffers on a fresh data directory, in both modes."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from app.db.embedded import EmbeddedPostgres
from app.db.urls import asyncpg_dsn


async def shared_buffers(url: str) -> str:
    connection = await asyncpg.connect(asyncpg_dsn(url))
    try:
        value: str = await connection.fetchval("SHOW shared_buffers")
        return value
    finally:
        await connection.close()


@pytest.mark.parametrize("delete_on_close", [False, True])
async def test_fresh_data_directory_gets_its_shared_buffers(
    tmp_path: Path, delete_on_close: bool
) -> None:
    pgdata = tmp_path / "pg"
    server = EmbeddedPostgres(pgdata, delete_on_close=delete_on_close, shared_buffers="144MB")
    url = server.start()
    try:
        # The restart that applies the setting must not re-create the directory (in "delete"
        # mode it once did, and the server ran with initdb's 128MB).
        assert await shared_buffers(url) == "144MB"
    finally:
        server.stop()
    assert pgdata.exists() is not delete_on_close
