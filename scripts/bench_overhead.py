"""What metrics and search analytics cost a search: p50 over HTTP with them and without.

`scripts/bench-search --overhead`: the same chunks as the latency benchmark (fewer here), then
hybrid searches through the whole ASGI app (httpx in process): the app as it ships (request
metrics, the request id and span middleware, search metrics, an analytics row written after
each response) and the same app without them (those two middlewares removed, the search
route's note a no-op). Each query runs through both, back to back in a random order, one
request at a time: on a shared machine whose load drifts by tens of percent from minute to
minute, only such pairs resolve a difference of a few percent.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from fastapi import FastAPI
from sqlalchemy import text
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.analytics.service import AnalyticsMiddleware
from app.config import Settings
from app.db.embedded import EmbeddedPostgres
from app.db.engine import Database
from app.db.migrate import upgrade_to_head
from app.main import create_app
from app.observability.middleware import ObservabilityMiddleware
from app.search import router as search_router

START, END = "<!-- ops-overhead:start -->", "<!-- ops-overhead:end -->"


def _no_note(*_args: Any, **_kwargs: Any) -> None:
    return None


def _bare(app: FastAPI) -> FastAPI:
    app.user_middleware = [
        m
        for m in app.user_middleware
        if m.cls not in (ObservabilityMiddleware, AnalyticsMiddleware)
    ]
    return app


class SentAt:
    """Notes when each response's last byte is handed to the server: httpx's in-process
    transport returns only once the app returns, after the analytics row is written, where
    a real server has sent the response before that."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.sent: dict[str, float] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        tag = dict(scope.get("headers", [])).get(b"x-bench", b"").decode()

        async def timed(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                self.sent[tag] = time.perf_counter()

        await self.app(scope, receive, timed)


async def _paired(
    shipped: FastAPI, bare: FastAPI, kb: str, bodies: list[dict[str, Any]], seed: int
) -> dict[str, list[float]]:
    """Each query once through each variant, back to back in a random order, one at a time:
    the pair sees the same load, so what the machine's other work adds cancels out in the
    paired differences. Also the time each request kept working after its response (the
    audit event in both, the analytics row in the shipped app)."""
    order = np.random.default_rng(seed)
    found: dict[str, list[float]] = {
        "with": [],
        "without": [],
        "after with": [],
        "after without": [],
    }
    note = search_router.note_search
    apps = {"with": SentAt(shipped), "without": SentAt(bare)}
    clients = {
        label: httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://b")
        for label, app in apps.items()
    }
    try:
        for index, body in enumerate(bodies):
            labels = ["with", "without"]
            order.shuffle(labels)
            for label in labels:
                search_router.note_search = note if label == "with" else _no_note  # type: ignore[assignment]
                started = time.perf_counter()
                response = await clients[label].post(
                    f"/v1/knowledge-bases/{kb}/search", json=body, headers={"x-bench": str(index)}
                )
                done = time.perf_counter()
                response.raise_for_status()
                sent = apps[label].sent[str(index)]
                found[label].append(sent - started)
                found[f"after {label}"].append(done - sent)
    finally:
        search_router.note_search = note  # type: ignore[assignment]
        for http in clients.values():
            await http.aclose()
    return found


async def main_async(args: argparse.Namespace) -> str:
    from scripts.bench_corpus import DIMS, claims, load

    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory(prefix="arbor-bench-") as tmp:
        server = EmbeddedPostgres(Path(tmp) / "pg", delete_on_close=True)
        url = server.start()
        try:
            await asyncio.to_thread(upgrade_to_head, url)
            settings = Settings(
                env="test", database_url=url, workers=0, db_pool_size=args.concurrency + 4
            )
            db = Database(url, settings)
            kb, (vectors, _, _), _ = await load(db, args.chunks, rng)
            await db.dispose()
            texts = claims()
            picks = rng.integers(0, args.chunks, args.queries)
            noise = (0.3 / np.sqrt(DIMS)) * rng.standard_normal((args.queries, DIMS))
            queries = vectors[picks] + noise.astype(np.float32)
            queries /= np.linalg.norm(queries, axis=1, keepdims=True)
            bodies = [
                {"query": texts[i % len(texts)], "vector": queries[i].tolist()}
                for i in range(args.queries)
            ]
            shipped = create_app(settings, database_url=url, embedder_factory=lambda _: None)
            bare = _bare(create_app(settings, database_url=url, embedder_factory=lambda _: None))
            async with (
                shipped.router.lifespan_context(shipped),
                bare.router.lifespan_context(bare),
            ):
                # Warm-up: caches, plans, statistics.
                await _paired(shipped, bare, str(kb.id), bodies[:40], seed=1)
                timings = await _paired(shipped, bare, str(kb.id), bodies * args.rounds, seed=2)
                async with shipped.state.database.transaction() as session:
                    rows = await session.scalar(text("SELECT count(*) FROM search_queries"))
        finally:
            server.stop()
    ms = {label: np.asarray(values) * 1000 for label, values in timings.items()}
    p50 = {label: float(np.percentile(ms[label], 50)) for label in ("with", "without")}
    p95 = {label: float(np.percentile(ms[label], 95)) for label in ("with", "without")}
    paired = ms["with"] - ms["without"]
    low, high = np.percentile(
        [np.median(np.random.default_rng(n).choice(paired, len(paired))) for n in range(1000)],
        [2.5, 97.5],
    )
    overhead = (p50["with"] / p50["without"] - 1) * 100
    lines = [
        "## Overhead of metrics and search analytics (`scripts/bench-search --overhead`)",
        "",
        f"{args.chunks:,} chunks as in the latency benchmark; {len(paired):,} hybrid searches "
        "(query text and vector) through the whole ASGI app in process, each run through both "
        "variants back to back in a random order, one request at a time, timed until the "
        "response's last byte is handed to the server. With: the app as it ships (request "
        "metrics, request id and span middleware, search metrics, an analytics row written "
        f"after each response: {rows:,} rows). Without: those middlewares removed and the "
        "search route's note a no-op.",
        "",
        "| variant | p50 ms | p95 ms |",
        "| --- | --- | --- |",
        *[f"| {label} | {p50[label]:.2f} | {p95[label]:.2f} |" for label in ("without", "with")],
        "",
        f"p50 overhead: {overhead:+.1f} %; median paired difference "
        f"{float(np.median(paired)):+.2f} ms (95 % bootstrap interval {low:+.2f} to {high:+.2f} "
        f"ms). After its response a search goes on writing its audit event, and in the "
        f"shipped app its analytics row: median {float(np.median(ms['after without'])):.2f} ms "
        f"without, {float(np.median(ms['after with'])):.2f} ms with (not in the answer's time; "
        "a pooled connection is held meanwhile).",
        "",
        f"Command: `scripts/bench-search --overhead --chunks {args.chunks} --queries "
        f"{args.queries} --rounds {args.rounds}`.",
    ]
    return "\n".join(lines)
