"""A streaming standby of the test server, from the embedded server's own binaries.

`pg_basebackup -R` copies the primary's data directory and writes the standby settings
(`standby.signal`, `primary_conninfo`); `pg_ctl` starts it on a Unix socket of its own.
As root (containers) both run as the user the embedded server runs as, which Postgres needs.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg
from sqlalchemy.engine import make_url
from sqlalchemy.engine.url import URL

from app.db.urls import asyncpg_dsn

# Found without importing pgserver (its import warns when XDG_RUNTIME_DIR is unset).
_PGSERVER = importlib.util.find_spec("pgserver")
assert _PGSERVER is not None
assert _PGSERVER.origin is not None
BIN = Path(_PGSERVER.origin).parent / "pginstall" / "bin"
SYSTEM_USER = "pgserver"  # the user pgserver runs the server as when started by root
TIMEOUT_S = 60


class Standby:
    """A hot standby of the server at `primary_url`, in a temporary directory."""

    def __init__(self, primary_url: str) -> None:
        self.primary = make_url(primary_url)
        self.root = Path(tempfile.mkdtemp(prefix="arbor-standby-"))
        self.pgdata = self.root / "pg"
        self.user = SYSTEM_USER if os.geteuid() == 0 else None
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [str(BIN / program), *args],
            check=True,
            capture_output=True,
            timeout=TIMEOUT_S,
            user=self.user,
        )

    def create(self) -> None:
        """Copy the primary (a fast checkpoint, WAL streamed alongside) and start the copy."""
        self._run(
            "pg_basebackup",
            "-h", str(self.primary.query["host"]),
            "-U", self.primary.username or "postgres",
            "-D", str(self.pgdata),
            "-R", "-X", "stream", "-c", "fast", "--no-sync",
        )  # fmt: skip
        self.start()

    def start(self) -> None:
        # The primary's shared_buffers came along in postgresql.auto.conf: a small one here.
        self._run(
            "pg_ctl", "-D", str(self.pgdata), "-w", "-l", str(self.root / "log"),
            "-o", f"-h '' -k {self.root} -c shared_buffers=32MB -c fsync=off",
            "start",
        )  # fmt: skip

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.pgdata), "-w", "-m", "immediate", "stop")

    def running(self) -> bool:
        return (self.pgdata / "postmaster.pid").exists()

    def url(self, database: str) -> str:
        """The URL of `database` on the standby (the primary's URL, with this socket)."""
        query = {**self.primary.query, "host": str(self.root)}
        standby: URL = self.primary.set(database=database, query=query)
        return standby.render_as_string(hide_password=False)

    async def execute(self, sql: str) -> None:
        connection = await asyncpg.connect(asyncpg_dsn(self.url("postgres")))
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    async def pause_replay(self) -> None:
        await self.execute("SELECT pg_wal_replay_pause()")

    async def resume_replay(self) -> None:
        await self.execute("SELECT pg_wal_replay_resume()")

    def remove(self) -> None:
        if self.running():
            self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
