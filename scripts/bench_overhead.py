"""What metrics and search analytics cost a search: p50 over HTTP with them and without.

`scripts/bench-search --overhead`: the same chunks as the latency benchmark (fewer by default),
then hybrid searches through the whole ASGI app (httpx in process, `concurrency` clients),
in alternating rounds: the app as it ships (request metrics, the request id and span
middleware, search metrics, an analytics row written after each response) and the same app
without them (those two middlewares removed, the search route's note a no-op). Alternating
rounds put both variants under the same load drift of a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from fastapi import FastAPI
from sqlalchemy import text

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


async def _round(
    app: FastAPI, kb: str, bodies: list[dict[str, Any]], concurrency: int
) -> list[float]:
    latencies: list[float] = []
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    for body in bodies:
        queue.put_nowait(body)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:

        async def client() -> None:
            while not queue.empty():
                body = queue.get_nowait()
                started = time.perf_counter()
                response = await http.post(f"/v1/knowledge-bases/{kb}/search", json=body)
                latencies.append(time.perf_counter() - started)
                response.raise_for_status()

        await asyncio.gather(*(client() for _ in range(concurrency)))
    return latencies


async def main_async(args: argparse.Namespace) -> str:
    from scripts.bench_search import DIMS, claims, load

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
            kb, (vectors, _, _) = await load(db, args.chunks, rng)
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
            note = search_router.note_search
            timings: dict[str, list[float]] = {"with": [], "without": []}
            per_round: dict[str, list[float]] = {"with": [], "without": []}
            async with (
                shipped.router.lifespan_context(shipped),
                bare.router.lifespan_context(bare),
            ):
                for app in (bare, shipped):  # warm-up: caches, plans, statistics
                    await _round(app, str(kb.id), bodies[:40], args.concurrency)
                for n in range(args.rounds * 2):
                    label = "without" if n % 2 == 0 else "with"
                    search_router.note_search = _no_note if label == "without" else note  # type: ignore[assignment]
                    app = bare if label == "without" else shipped
                    latencies = await _round(app, str(kb.id), bodies, args.concurrency)
                    timings[label] += latencies
                    per_round[label].append(float(np.percentile(latencies, 50) * 1000))
                search_router.note_search = note  # type: ignore[assignment]
                async with shipped.state.database.transaction() as session:
                    rows = await session.scalar(text("SELECT count(*) FROM search_queries"))
        finally:
            server.stop()
    p50 = {label: float(np.percentile(values, 50) * 1000) for label, values in timings.items()}
    p95 = {label: float(np.percentile(values, 95) * 1000) for label, values in timings.items()}
    overhead = (p50["with"] / p50["without"] - 1) * 100
    spread = {label: statistics.pstdev(values) for label, values in per_round.items()}
    lines = [
        "## Overhead of metrics and search analytics (`scripts/bench-search --overhead`)",
        "",
        f"{args.chunks:,} chunks as in the latency benchmark; hybrid searches (query text and "
        f"vector) through the whole ASGI app in process, {args.concurrency} clients, "
        f"{args.rounds} alternating rounds of {args.queries} searches per variant. With: the "
        "app as it ships (request metrics, request id and span middleware, search metrics, "
        f"an analytics row written after each response: {rows:,} rows). Without: those "
        "middlewares removed and the search route's note a no-op.",
        "",
        "| variant | p50 ms | p95 ms | p50 per round, ms (spread) |",
        "| --- | --- | --- | --- |",
        *[
            f"| {label} | {p50[label]:.1f} | {p95[label]:.1f} | "
            f"{', '.join(f'{v:.1f}' for v in per_round[label])} ({spread[label]:.1f}) |"
            for label in ("without", "with")
        ],
        "",
        f"p50 overhead: {overhead:+.1f} %.",
        "",
        f"Command: `scripts/bench-search --overhead --chunks {args.chunks} --queries "
        f"{args.queries} --rounds {args.rounds} --concurrency {args.concurrency}`.",
    ]
    return "\n".join(lines)
