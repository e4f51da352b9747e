"""How far one node goes: load, index build, recall and latency from 10k to 1M chunks.

`scripts/bench-search --scale --chunks 10000,100000,300000,1000000 --write` runs each size in
its own temporary embedded Postgres (the same synthetic corpus as `scripts/bench-search`:
SciFact sentences, clustered 384-d unit vectors), in order, and after each size records its
figures in `.cache/bench-scale.json` (a size run again replaces its entry) and, with
`--write`, rewrites the curve section of docs/benchmarks.md from that file, so a size that
never finishes leaves the smaller ones measured.

Per size: COPY time, HNSW build time (one `CREATE INDEX`, `maintenance_work_mem` sized to hold
the graph), index and table sizes, recall@10 of vector search against exact search at
ef_search 40/100/200, hybrid/vector/text p50/p99 at 1 and 8 clients, and memory: the
proportional set size of all Postgres processes (shared buffers counted once) and the RSS of
the client process (the service layer plus the ground-truth vectors it holds).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import psutil
from sqlalchemy import text

from app.chunks.vector_index import index_name
from app.config import Settings
from app.db.embedded import EmbeddedPostgres, default_shared_buffers
from app.db.engine import Database
from app.db.migrate import upgrade_to_head
from app.kit.heap import freeze_startup_heap
from app.models import KnowledgeBase
from app.search.schemas import SearchOptions
from scripts.bench_corpus import DIMS, ROOT, claims, load
from scripts.bench_search import clients, percentile, timed_search

START, END = "<!-- search-scale:start -->", "<!-- search-scale:end -->"
RESULTS = ROOT / ".cache" / "bench-scale.json"
EF_SEARCH = (40, 100, 200)
MODES = ("hybrid", "vector", "text")


def build_memory_for(chunks: int) -> str:
    """maintenance_work_mem that holds the HNSW graph of `chunks` 384-d vectors in memory.

    pgvector keeps about 2.2 KB per element at m = 16 (the vector plus its neighbour lists);
    4 KB leaves room, and 1 GB is the floor the bench always used."""
    return f"{max(1024, chunks * 4 // 1024)}MB"


def postgres_pss_mb(backend_pid: int) -> float:
    """Proportional set size of the postmaster and all its children, in MB."""
    postmaster = psutil.Process(backend_pid).parent()
    total = 0
    for process in [postmaster, *postmaster.children(recursive=True)]:
        try:
            total += process.memory_full_info().pss
        except psutil.NoSuchProcess:
            continue  # a worker that ended meanwhile
    return total / 2**20


async def sizes(db: Database, kb: KnowledgeBase) -> dict[str, float]:
    async with db.engine.connect() as connection:
        row = (
            await connection.execute(
                text(
                    "SELECT pg_relation_size(CAST(:index AS regclass)) AS index_bytes, "
                    "(SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('chunks')) "
                    "AS chunks_bytes, "
                    "pg_backend_pid() AS pid, current_setting('shared_buffers') AS buffers"
                ),
                {"index": f"public.{index_name(kb.id)}"},
            )
        ).one()
    return {
        "index_mb": row.index_bytes / 2**20,
        "chunks_mb": row.chunks_bytes / 2**20,
        "postgres_pss_mb": postgres_pss_mb(row.pid),
        "shared_buffers": row.buffers,
    }


async def measure(args: argparse.Namespace, chunks: int) -> dict[str, Any]:
    rng = np.random.default_rng(7)
    result: dict[str, Any] = {"chunks": chunks, "build_memory": build_memory_for(chunks)}
    with tempfile.TemporaryDirectory(prefix="arbor-bench-") as tmp:
        server = EmbeddedPostgres(
            # Not deleted on stop: a restart with another shared_buffers reuses the data.
            Path(tmp) / "pg",
            shared_buffers=args.shared_buffers,
        )
        url = server.start()
        try:
            await asyncio.to_thread(upgrade_to_head, url)
            db = Database(url, Settings(env="test", db_pool_size=args.concurrency + 2))
            kb, (vectors, _, positions), phases = await load(
                db, chunks, rng, build_memory=result["build_memory"]
            )
            result.update({f"{name}_s": seconds for name, seconds in phases.items()})
            print(f"{chunks:,} chunks: {phases}", flush=True)
            freeze_startup_heap()
            texts = claims()
            picks = rng.integers(0, chunks, args.queries)
            noise = (0.3 / np.sqrt(DIMS)) * rng.standard_normal((args.queries, DIMS))
            queries = vectors[picks] + noise.astype(np.float32)
            queries /= np.linalg.norm(queries, axis=1, keepdims=True)

            def options(i: int, **extra: Any) -> SearchOptions:
                return SearchOptions(
                    query=texts[i % len(texts)], vector=queries[i].tolist(), **extra
                )

            await clients(db, kb, [options(i) for i in range(20)], args.concurrency)
            # The machine's 1-minute load average when the searches start: shared machines.
            result["load_average"] = os.getloadavg()[0]
            result["latency"] = await latency_rows(db, kb, options, args, (1, args.concurrency))
            knobs = {}
            for ef in EF_SEARCH:
                scores = []
                for i in range(args.recall_queries):
                    _, found = await timed_search(
                        db, kb, SearchOptions(vector=queries[i].tolist(), mode="vector",
                                              ef_search=ef)
                    )  # fmt: skip
                    exact = set(np.argsort(-(vectors @ queries[i]))[:10].tolist())
                    got = {positions[h.doc_id] * 50 + h.chunk_index for h in found.hits}
                    scores.append(len(got & exact) / 10)
                jobs = [options(i, ef_search=ef) for i in range(args.queries)]
                latencies, _, _ = await clients(db, kb, jobs, args.concurrency)
                knobs[str(ef)] = {
                    "recall": statistics.mean(scores),
                    "hybrid": [percentile(latencies, 50), percentile(latencies, 99)],
                }
                print(f"ef_search {ef}: {knobs[str(ef)]}", flush=True)
            result["ef_search"] = knobs
            result.update(await sizes(db, kb))
            result["client_rss_mb"] = psutil.Process().memory_info().rss / 2**20
            result["ground_truth_mb"] = vectors.nbytes / 2**20
            await db.dispose()
            if args.also_shared_buffers:
                # The same data after a restart with another shared_buffers: searches warmed
                # by one pass of each mode, then the 8-client rows again.
                server.stop()
                server, url = restarted(server.pgdata, args.also_shared_buffers)
                db = Database(url, Settings(env="test", db_pool_size=args.concurrency + 2))
                for mode in MODES:
                    warm = [options(i, mode=mode) for i in range(args.queries)]
                    await clients(db, kb, warm, args.concurrency)
                result["latency_alt"] = await latency_rows(
                    db, kb, options, args, (args.concurrency,)
                )
                async with db.engine.connect() as connection:
                    # As the server runs it, not as asked: proof the restart applied it.
                    result["shared_buffers_alt"] = await connection.scalar(
                        text("SELECT current_setting('shared_buffers')")
                    )
                await db.dispose()
        finally:
            server.stop()
    return result


def restarted(pgdata: Path, shared_buffers: str) -> tuple[EmbeddedPostgres, str]:
    """The server on `pgdata` again with another shared_buffers (written, then a restart)."""
    first = EmbeddedPostgres(pgdata, shared_buffers=shared_buffers)
    first.start()  # writes the setting, which applies at the next start
    first.stop()
    server = EmbeddedPostgres(pgdata, shared_buffers=shared_buffers)
    return server, server.start()


async def latency_rows(
    db: Database,
    kb: KnowledgeBase,
    options: Callable[..., SearchOptions],
    args: argparse.Namespace,
    concurrencies: tuple[int, ...],
) -> dict[str, list[float]]:
    """p50 and p99 ms of each mode at each concurrency (a quarter of the searches at 1)."""
    latency: dict[str, list[float]] = {}
    for concurrency in concurrencies:
        count = args.queries if concurrency > 1 else args.queries // 4
        for mode in MODES:
            jobs = [options(i, mode=mode) for i in range(count)]
            latencies, _, _ = await clients(db, kb, jobs, concurrency)
            key = f"{mode}@{concurrency}"
            latency[key] = [percentile(latencies, 50), percentile(latencies, 99)]
            print(f"{mode} at {concurrency}: {latency[key]}", flush=True)
    return latency


def render(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    rows = sorted(results, key=lambda r: r["chunks"])
    curve = [
        f"| {r['chunks']:,} | {r['copy_s']:.0f} | {r['index_s']:.0f} | {r['build_memory']} "
        f"| {r['index_mb']:.0f} | {r['chunks_mb']:.0f} | {r['settle_s']:.0f} "
        f"| {r['postgres_pss_mb']:.0f} | {r['client_rss_mb']:.0f} "
        f"({r['ground_truth_mb']:.0f}) |"
        for r in rows
    ]
    latency = [
        f"| {r['chunks']:,} | {r.get('load_average', 0):.0f} | {c} | "
        + " | ".join(f"{r['latency'][f'{m}@{c}'][0]:.1f} / {r['latency'][f'{m}@{c}'][1]:.1f}"
                     for m in MODES)
        + " |"
        for r in rows
        for c in sorted({int(key.split("@")[1]) for key in r["latency"]})
    ]  # fmt: skip
    knobs = [
        f"| {r['chunks']:,} | {ef} | {r['ef_search'][str(ef)]['recall']:.3f} | "
        f"{r['ef_search'][str(ef)]['hybrid'][0]:.1f} / {r['ef_search'][str(ef)]['hybrid'][1]:.1f} |"
        for r in rows
        for ef in EF_SEARCH
    ]
    buffers = rows[0]["shared_buffers"] if rows else "?"
    alternatives = [
        f"| {r['chunks']:,} | {r[key]} | {args.concurrency} | "
        + " | ".join(f"{r[lat][f'{m}@{args.concurrency}'][0]:.1f} / "
                     f"{r[lat][f'{m}@{args.concurrency}'][1]:.1f}" for m in MODES)
        + " |"
        for r in rows
        if "latency_alt" in r
        for key, lat in (("shared_buffers", "latency"), ("shared_buffers_alt", "latency_alt"))
    ]  # fmt: skip
    sizes_run = ",".join(str(r["chunks"]) for r in rows)
    return "\n".join(
        [
            "## How far one node goes: 10k to 1M chunks (`scripts/bench-search --scale`)",
            "",
            "The corpus of the search bench above (1-3 SciFact sentences per chunk, synthetic "
            "384-d unit vectors around 1,000 centres, 50 chunks per document) at each size, "
            "in a fresh embedded Postgres 18 + pgvector 0.8 with shared_buffers "
            f"{buffers}, on this machine (2 CPU cores shared by the clients, Postgres and other "
            "work). Load: binary COPY without the index; then one `CREATE INDEX` (HNSW, m 16, "
            "ef_construction 64, `maintenance_work_mem` as listed, pgvector's parallel build); "
            "then `VACUUM (ANALYZE)` and the text statistics (settle). Memory after the "
            "searches: Postgres is the proportional set size of all its processes (shared "
            "buffers counted once); the client process is the service layer plus the exact-"
            "search ground truth it holds (in brackets).",
            "",
            "| chunks | COPY s | index build s | maintenance_work_mem | index MB "
            "| chunks table + indexes MB | settle s | Postgres MB | client RSS MB (ground truth) |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
            *curve,
            "",
            f"Latency, p50 / p99 ms, default settings (top_k 10, candidates 100, ef_search 100); "
            f"{args.queries} searches at {args.concurrency} clients, {args.queries // 4} at 1; the "
            "machine's 1-minute load average as the searches began (2 cores: above 2, other "
            "work was queued for the CPU):",
            "",
            "| chunks | load average | clients | hybrid | vector | text |",
            "| --- | --- | --- | --- | --- | --- |",
            *latency,
            "",
            f"ef_search: recall@10 of vector search against exact search ({args.recall_queries} "
            f"queries, each near a random chunk) and hybrid p50 / p99 ms at {args.concurrency} "
            "clients:",
            "",
            "| chunks | ef_search | recall@10 | hybrid p50 / p99 ms |",
            "| --- | --- | --- | --- |",
            *knobs,
            "",
            *(
                [
                    "shared_buffers: the same data before and after a restart with another "
                    "value (after one warming pass of each mode), p50 / p99 ms:",
                    "",
                    "| chunks | shared_buffers | clients | hybrid | vector | text |",
                    "| --- | --- | --- | --- | --- | --- |",
                    *alternatives,
                    "",
                ]
                if alternatives
                else []
            ),
            f"Command: `scripts/bench-search --scale --chunks {sizes_run} --write`.",
        ]
    )


def record(result: dict[str, Any], path: Path) -> list[dict[str, Any]]:
    results = json.loads(path.read_text()) if path.exists() else []
    results = [r for r in results if r["chunks"] != result["chunks"]] + [result]
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(results, indent=1))
    return list(results)


def main(args: argparse.Namespace) -> None:
    from scripts.bench_search import write_section

    args.shared_buffers = args.shared_buffers or default_shared_buffers()
    for chunks in [int(size) for size in str(args.chunks).split(",")]:
        started = time.perf_counter()
        results = record(asyncio.run(measure(args, chunks)), args.results or RESULTS)
        print(f"{chunks:,} chunks measured in {time.perf_counter() - started:.0f} s", flush=True)
        table = render(results, args)
        print(table, flush=True)
        if args.write:
            write_section(table, markers=(START, END))
