"""`arbor`: serve the API, run migrations, export the OpenAPI document; and, as a client of a
running server, manage knowledge bases, ingest, search, evaluate and serve MCP over stdio."""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from app.config import Settings, get_settings

if TYPE_CHECKING:
    from app.db.embedded import EmbeddedPostgres


# The server's modules (alembic, the database) are imported where they are used: the client
# commands (`arbor search`, `arbor mcp` started by a desktop agent) need none of them, and
# importing them took longer than the command itself.
def upgrade_to_head(url: str) -> None:
    from app.db.migrate import upgrade_to_head as upgrade

    upgrade(url)


logger = logging.getLogger("arbor")


def wait_for_database(url: str, *, timeout_s: float) -> None:
    """Block until the database accepts connections (compose starts app and db together)."""
    import asyncio
    import time

    import asyncpg

    from app.db.urls import asyncpg_dsn

    async def probe() -> None:
        connection = await asyncpg.connect(asyncpg_dsn(url), timeout=5)
        await connection.close()

    deadline = time.monotonic() + timeout_s
    while True:
        try:
            asyncio.run(probe())
            return
        except (OSError, asyncpg.PostgresError) as exc:
            if time.monotonic() > deadline:
                raise SystemExit(
                    f"arbor: database not reachable after {timeout_s:.0f} s: {exc}"
                ) from None
            logger.info("waiting for the database: %s", type(exc).__name__)
            time.sleep(1)


def _database_url(settings: Settings) -> tuple[str, EmbeddedPostgres | None]:
    if settings.database_url:
        wait_for_database(settings.database_url, timeout_s=settings.db_wait_s)
        return settings.database_url, None
    from app.db.embedded import EmbeddedPostgres

    embedded = EmbeddedPostgres(
        settings.embedded_pg_dir, shared_buffers=settings.embedded_shared_buffers
    )
    url = embedded.start()
    embedded.watch()  # started again if it dies: nobody else would
    return url, embedded


def _exit_on_sigterm(signum: int, _frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def serve(settings: Settings, *, host: str, port: int) -> None:
    import uvicorn

    # uvicorn re-raises the signal that stopped it once it is done; with Python's default
    # SIGTERM action that would kill us before the embedded Postgres is stopped.
    signal.signal(signal.SIGTERM, _exit_on_sigterm)

    from app.auth.mode import UnsafeConfiguration, resolve
    from app.kit.protocols import ProblemHttpToolsProtocol
    from app.main import create_app
    from app.observability import logs

    # The bind decides whether keys are required: check it before starting anything.
    settings = settings.model_copy(update={"host": host, "port": port})
    try:
        resolve(settings)
    except UnsafeConfiguration as exc:
        raise SystemExit(f"arbor: {exc}") from None
    url, embedded = _database_url(settings)
    try:
        upgrade_to_head(url)
        logger.info(
            "serving on http://%s:%d (%s, %d HTTP process%s)",
            host,
            port,
            "embedded postgres" if embedded else "DATABASE_URL",
            settings.http_workers,
            "es" if settings.http_workers > 1 else "",
        )
        if settings.http_workers > 1:
            serve_processes(settings, url, host=host, port=port)
        else:
            uvicorn.run(
                create_app(settings, database_url=url),
                host=host,
                port=port,
                log_level=settings.log_level,
                log_config=logs.dict_config(level=settings.log_level, fmt=settings.log_format),
                http=ProblemHttpToolsProtocol,
            )
    finally:
        if embedded is not None:
            embedded.stop()


# How long uvicorn's supervisor waits for an HTTP process to answer its health check before it
# kills and replaces it. Its default, 5 s, is shorter than importing the app takes on a busy
# host: every child was killed while starting, and replaced, and killed again, and none ever
# served.
CHILD_HEALTHCHECK_S = 30


def serve_processes(settings: Settings, url: str, *, host: str, port: int) -> None:
    """`http_workers` HTTP processes on one socket, and the job loops in an `arbor worker`
    process beside them, all on `url`; returns once uvicorn's supervisor has stopped them.

    One Python process serves requests on one core: a second one lets two bulk loads parse and
    stream at once (docs/benchmarks.md). The children are spawned, so they read their settings
    from the environment set here.
    """
    import shutil
    import subprocess
    import tempfile

    import uvicorn

    from app.kit.protocols import ProblemHttpToolsProtocol
    from app.observability import logs

    os.environ["DATABASE_URL"] = url
    os.environ["ARBOR_HOST"] = host
    # Metrics of every child merged at /metrics (app/observability/metrics.py): a fresh
    # folder per start, so that a previous run's counters are not added in.
    metrics_dir = tempfile.mkdtemp(prefix="arbor-metrics-")
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", metrics_dir)
    os.environ["PORT"] = str(port)
    jobs = None
    if settings.workers > 0:
        jobs = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "worker", "--concurrency", str(settings.workers)]
        )
    # The HTTP processes leave the jobs to that process (they still queue them).
    os.environ["ARBOR_WORKERS"] = "0"
    try:
        uvicorn.run(
            "app.main:app_from_environment",
            factory=True,
            host=host,
            port=port,
            workers=settings.http_workers,
            timeout_worker_healthcheck=CHILD_HEALTHCHECK_S,
            log_level=settings.log_level,
            log_config=logs.dict_config(level=settings.log_level, fmt=settings.log_format),
            http=ProblemHttpToolsProtocol,
        )
    finally:
        shutil.rmtree(metrics_dir, ignore_errors=True)
        if jobs is not None:
            jobs.send_signal(signal.SIGTERM)
            try:
                jobs.wait(timeout=60)
            except subprocess.TimeoutExpired:
                jobs.kill()
                jobs.wait()


async def _run_workers(url: str, settings: Settings, concurrency: int) -> None:
    import asyncio

    from app.chunks.providers import default_embedder_factory
    from app.db.engine import Database
    from app.documents.worker_pool import worker_pool
    from app.kit.heap import freeze_startup_heap
    from app.kit.periodic import every
    from app.sources import service as sources
    from app.webhooks.dispatcher import WebhookDispatcher

    database = Database(url, settings)
    pool = worker_pool(
        database, settings, default_embedder_factory(settings), concurrency=concurrency
    )
    dispatcher = WebhookDispatcher(database, settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    pool.start()
    dispatcher.start()
    # Scheduled source syncs are queued where the job loops run (as in the API process).
    schedules = asyncio.create_task(
        every(
            settings.source_schedule_poll_s,
            lambda: sources.enqueue_due(database, settings),
            what="source schedules",
            shared=database,
        )
    )
    freeze_startup_heap()
    logger.info("worker %s running %d job loops and webhook delivery", pool.worker_id, concurrency)
    try:
        await stop.wait()
    finally:
        schedules.cancel()
        await dispatcher.stop()
        await pool.stop()
        await database.dispose()


def work(settings: Settings, *, concurrency: int) -> None:
    """Run ingestion jobs and webhook delivery from the shared database, without serving HTTP."""
    import asyncio

    url, embedded = _database_url(settings)
    try:
        upgrade_to_head(url)
        asyncio.run(_run_workers(url, settings, concurrency))
    finally:
        if embedded is not None:
            embedded.stop()


def migrate(settings: Settings) -> None:
    url, embedded = _database_url(settings)
    try:
        upgrade_to_head(url)
    finally:
        if embedded is not None:
            embedded.stop()


def export_openapi(path: Path) -> None:
    from app.main import create_app

    schema = create_app(Settings(database_url="postgresql://unused/unused")).openapi()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="arbor", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve_cmd = commands.add_parser("serve", help="migrate, then serve the API")
    serve_cmd.add_argument("--host", default=None)
    serve_cmd.add_argument("--port", type=int, default=None)
    commands.add_parser("migrate", help="apply database migrations")
    worker_cmd = commands.add_parser(
        "worker", help="run ingestion jobs and webhook delivery (more workers)"
    )
    worker_cmd.add_argument("--concurrency", type=int, default=None)
    export_cmd = commands.add_parser("export-openapi", help="write the OpenAPI document")
    export_cmd.add_argument("path", type=Path, nargs="?", default=Path("openapi/openapi.json"))
    # Client commands (kb, ingest, search, eval, mcp) talk to a running server over HTTP.
    from app.terminal import commands as client_commands

    client_commands.register(commands)
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is not None:
        client_commands.run(args)
        return

    settings = get_settings()
    from app.observability import logs

    logs.configure(level=settings.log_level, fmt=settings.log_format)
    # pgserver narrates every pg_ctl call at INFO; its failures still come through.
    logging.getLogger("pgserver").setLevel(logging.WARNING)
    if args.command == "serve":
        serve(settings, host=args.host or settings.host, port=args.port or settings.port)
    elif args.command == "migrate":
        migrate(settings)
    elif args.command == "worker":
        work(settings, concurrency=args.concurrency or max(settings.workers, 1))
    else:
        export_openapi(args.path)


if __name__ == "__main__":
    main()
