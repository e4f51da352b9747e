"""Small helpers shared by API tests."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
from collections.abc import AsyncIterator, Callable, Collection, Iterator
from typing import Any

import asyncpg
import httpx
import uvicorn
from fastapi import FastAPI
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.urls import asyncpg_dsn
from app.kit.protocols import ProblemHttpToolsProtocol


async def wait_ready(
    client: httpx.AsyncClient,
    url: str,
    timeout_s: float = 30,
    *,
    headers: dict[str, str] | None = None,
    until: Collection[str] = ("ready", "failed"),
) -> dict[str, Any]:
    """Poll a document (or, with `until` its end states, a job) until its status is one of
    `until`, or the time is up: the last answer either way."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while True:
        found: dict[str, Any] = (await client.get(url, headers=headers)).json()
        if found["status"] in until or loop.time() > deadline:
            return found
        await asyncio.sleep(0.05)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def serve_in_loop(
    app: FastAPI, *, http: type = ProblemHttpToolsProtocol
) -> AsyncIterator[int]:
    """`app` (its lifespan already entered) behind a real uvicorn on a free port, in this
    event loop: the database pool stays on the loop it was made on. Yields the port."""
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, lifespan="off", http=http, log_level="warning"
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()  # start-up failed: raise why
        await asyncio.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        await task


async def stop_background_loops() -> None:
    """Cancel the app's housekeeping loops (pruning, index upkeep): one of them meeting a
    dropped connection first would discard the pool before the request under test does."""
    names = {
        "arbor-audit-prune",
        "arbor-event-prune",
        "arbor-analytics-prune",
        "arbor-index-upkeep",
    }
    loops = [t for t in asyncio.all_tasks() if t.get_name() in names]
    assert len(loops) == len(names), "the app starts its housekeeping loops"
    for loop in loops:
        loop.cancel()
    await asyncio.gather(*loops, return_exceptions=True)


async def drop_pooled_connections(database_url: str) -> int:
    """Terminate every other connection to the test database, as a server restart would;
    returns how many."""
    admin = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        name = await admin.fetchval("SELECT current_database()")
        return int(
            await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = $1 AND pid <> pg_backend_pid()",
                name,
            )
        )
    finally:
        await admin.close()


@contextlib.contextmanager
def statements_sent(
    engine: AsyncEngine, keep: Callable[[str], bool] = lambda _statement: True
) -> Iterator[list[tuple[str, Any]]]:
    """The SQL statements (with their parameters) the engine sends while the block runs, those
    `keep` accepts: the app's job loops and webhook dispatcher send theirs meanwhile."""
    sent: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        if keep(statement):
            sent.append((statement, parameters))

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", record)


# The tables a tenant's rows live in that a statement must name the project of, for a
# database sharded by project (tests/auth/test_project_in_sql.py, docs/scaling.md).
TENANT_TABLES = (
    "chunks",
    "documents",
    "document_nodes",
    "knowledge_bases",
    "knowledge_base_tallies",
    "text_statistics",
)
READ = re.compile(
    rf"\b(?:FROM|JOIN|UPDATE)\s+(?:public\.)?({'|'.join(TENANT_TABLES)})\b"
    r"(?:\s+(?:AS\s+)?(?!(?:WHERE|ON|SET|JOIN|LEFT|INNER|CROSS|FULL|GROUP|ORDER|LIMIT|UNION)\b)(\w+))?",
    re.IGNORECASE,
)


def unnamed_projects(statement: str) -> list[str]:
    """The tenant tables (or their aliases) the statement reads with no `project_id`
    condition on them."""
    missing = []
    read = list(READ.finditer(statement))
    for match in read:
        name = match.group(2) or match.group(1)
        if re.search(
            rf"\b{re.escape(name)}\.project_id\s*=|=\s*{re.escape(name)}\.project_id\b", statement
        ):
            continue
        # A statement over one table may leave its columns unqualified.
        if len(read) == 1 and re.search(r"(?<![.\w])project_id\s*=", statement):
            continue
        missing.append(name)
    return missing
