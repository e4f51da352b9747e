"""Search latency and HNSW recall at 100k chunks, through the service layer.

Loads N chunks (default 100,000) into a temporary embedded Postgres with COPY: texts are 1-3
consecutive sentences of SciFact abstracts, vectors are synthetic 384-d unit vectors drawn
around 1,000 cluster centres (real embeddings cluster too; uniform random vectors are a worst
case no embedder produces). Documents carry `metadata.group` = 0..49, so one group is a 2%
filter. Then 8 concurrent clients run hybrid searches (SciFact claims as query text, a vector
near a random chunk as query vector) and the script prints latency percentiles, QPS, and the
recall@10 of vector search against exact search, unfiltered and with the 2% filter.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.chunks.partitions import partition_of  # noqa: E402
from app.chunks.vector_index import create_index_sql, index_name  # noqa: E402
from app.config import Settings  # noqa: E402
from app.db.embedded import EmbeddedPostgres  # noqa: E402
from app.db.engine import Database  # noqa: E402
from app.db.migrate import upgrade_to_head  # noqa: E402
from app.kit.heap import freeze_startup_heap  # noqa: E402
from app.models import KnowledgeBase  # noqa: E402
from app.search import service, text_statistics  # noqa: E402
from app.search.schemas import SearchOptions  # noqa: E402
from scripts.bench_corpus import DIMS, GROUPS, claims, load  # noqa: E402

BENCHMARKS = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- search-bench:start -->", "<!-- search-bench:end -->"


async def ddl_in_transaction(db: Database, kb: KnowledgeBase) -> tuple[float, float]:
    """Milliseconds of CREATE INDEX for a new knowledge base and of DROP INDEX plus the cascade
    delete of this one, each in a transaction rolled back: what those locks were held for when
    the requests ran this DDL in their own transaction."""
    timings = []
    other = uuid.uuid4()
    async with db.engine.connect() as connection:
        partition = await partition_of(connection, other)
    for statements in (
        [create_index_sql(other, partition=partition, dimensions=DIMS, m=16,
                          ef_construction=64, concurrently=False)],
        [f"DROP INDEX public.{index_name(kb.id)}",
         f"DELETE FROM knowledge_bases WHERE id = '{kb.id}'"],
    ):  # fmt: skip
        async with db.engine.connect() as connection:
            transaction = await connection.begin()
            started = time.perf_counter()
            for statement in statements:
                await connection.execute(text(statement))
            timings.append((time.perf_counter() - started) * 1000)
            await transaction.rollback()
    return timings[0], timings[1]


async def timed_search(
    db: Database, kb: KnowledgeBase, options: SearchOptions
) -> tuple[float, Any]:
    started = time.perf_counter()
    # As a search request does: one snapshot, the app role, row-level security, the tenant
    # view of chunks.
    async with db.transaction(project_id=kb.project_id, one_snapshot=True) as session:
        found = await service.search(
            session, [kb], options, embedders=lambda _: None, reranker=None
        )
    return time.perf_counter() - started, found


async def clients(
    db: Database, kb: KnowledgeBase, jobs: list[SearchOptions], concurrency: int
) -> tuple[list[float], float, list[int]]:
    """Latencies, wall time and hit counts; a client keeps no results, as the service keeps none."""
    queue: asyncio.Queue[tuple[int, SearchOptions]] = asyncio.Queue()
    for item in enumerate(jobs):
        queue.put_nowait(item)
    latencies: list[float] = [0.0] * len(jobs)
    hit_counts: list[int] = [0] * len(jobs)

    async def worker() -> None:
        while not queue.empty():
            index, options = queue.get_nowait()
            latencies[index], found = await timed_search(db, kb, options)
            hit_counts[index] = len(found.hits)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies, time.perf_counter() - started, hit_counts


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values) * 1000, q))


async def main_async(args: argparse.Namespace) -> str:
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory(prefix="arbor-bench-") as tmp:
        server = EmbeddedPostgres(Path(tmp) / "pg", delete_on_close=True)
        url = server.start()
        try:
            await asyncio.to_thread(upgrade_to_head, url)
            db = Database(url, Settings(env="test", db_pool_size=args.concurrency + 2))
            started = time.perf_counter()
            kb, (vectors, groups, positions), _ = await load(db, args.chunks, rng)
            load_s = time.perf_counter() - started
            print(f"loaded {args.chunks} chunks and built the index in {load_s:.0f} s")
            # Where the service's start-up ends, as its lifespan does (app/kit/heap.py).
            freeze_startup_heap()
            texts = claims()
            picks = rng.integers(0, args.chunks, args.queries)
            # Noise of norm about 0.3 around a unit vector: a query near one chunk (cos ~0.95).
            noise = (0.3 / np.sqrt(DIMS)) * rng.standard_normal((args.queries, DIMS))
            noise = noise.astype(np.float32)
            queries = vectors[picks] + noise
            queries /= np.linalg.norm(queries, axis=1, keepdims=True)
            group = 7
            filtered = {"metadata.group": group}
            # The same 2 % named as documents ("search within these files").
            chosen = [str(doc_id) for doc_id, i in positions.items() if i % GROUPS == group]
            by_documents = {"doc_id": {"$in": chosen}}

            def options(i: int, *, words: int = 0, **extra: Any) -> SearchOptions:
                query = texts[i % len(texts)]
                if words:
                    query = " ".join(query.split()[:words])
                return SearchOptions(query=query, vector=queries[i].tolist(), **extra)

            # Warm up caches (shared buffers, plan caches, the chunk count).
            await clients(db, kb, [options(i) for i in range(20)], args.concurrency)
            lines = []
            for label, extra in (
                ("hybrid", {}),
                ("hybrid, 2% filter", {"filter": filtered}),
                ("hybrid, 2% of documents by id", {"filter": by_documents}),
                ("vector", {"mode": "vector"}),
                ("text", {"mode": "text"}),
                ("hybrid, 3-word queries", {"words": 3}),
                ("text, 3-word queries", {"mode": "text", "words": 3}),
                ("hybrid, websearch syntax", {"text_match": "websearch"}),
            ):
                jobs = [options(i, **extra) for i in range(args.queries)]
                latencies, wall, hit_counts = await clients(db, kb, jobs, args.concurrency)
                short = sum(1 for count in hit_counts if count < 10)
                lines.append(
                    f"| {label} | {percentile(latencies, 50):.1f} | {percentile(latencies, 95):.1f}"
                    f" | {percentile(latencies, 99):.1f} | {len(jobs) / wall:.0f} | {short} |"
                )
                print(lines[-1])
            recalls = {}
            for label, extra, mask in (
                ("unfiltered", {}, np.ones(len(vectors), dtype=bool)),
                ("2% filter", {"filter": filtered}, groups == group),
            ):
                scores = []
                for i in range(args.recall_queries):
                    _, found = await timed_search(
                        db, kb, SearchOptions(vector=queries[i].tolist(), mode="vector", **extra)
                    )
                    similarity = np.where(mask, vectors @ queries[i], -np.inf)
                    exact = set(np.argsort(-similarity)[:10].tolist())
                    got = {positions[h.doc_id] * 50 + h.chunk_index for h in found.hits}
                    scores.append(len(got & exact) / 10)
                recalls[label] = statistics.mean(scores)
                print(f"recall@10 {label}: {recalls[label]:.4f}")
            create_ms, delete_ms = await ddl_in_transaction(db, kb)
            print(f"in-transaction DDL: create {create_ms:.0f} ms, delete {delete_ms:.0f} ms")
            await db.dispose()
        finally:
            server.stop()
    return "\n".join(
        [
            "## Search latency and recall (`scripts/bench-search`)",
            "",
            f"{args.chunks:,} chunks (1-3 SciFact sentences each, synthetic clustered 384-d "
            f"vectors), {args.chunks // 50:,} documents; {args.concurrency} concurrent clients "
            "through the service layer (one transaction per search scoped to the project as a "
            "request's is: app role, row-level security, tenant view), "
            f"{args.queries} searches per row, SciFact claims (about 12 words, 8 lexemes) as query "
            "text, or their first 3 words; default settings "
            "(top_k 10, candidates 100, ef_search 100, full-text match budget "
            f"{text_statistics.MATCH_BUDGET:,} chunks). Embedded Postgres 18 + pgvector 0.8 "
            "(shared_buffers as the service sets it) on this machine (2 CPU cores, shared by the "
            "clients and the server). Load + index build + VACUUM (ANALYZE) + text statistics: "
            f"{load_s:.0f} s.",
            "",
            "| search | p50 ms | p95 ms | p99 ms | QPS | searches with < top_k hits |",
            "| --- | --- | --- | --- | --- | --- |",
            *lines,
            "",
            f"HNSW recall@10 against exact search ({args.recall_queries} queries, vector mode): "
            f"unfiltered {recalls['unfiltered']:.4f}, 2% filter {recalls['2% filter']:.4f}.",
            "",
            "What a knowledge base's index DDL would lock `chunks` for, run in its transaction "
            "(timed, then rolled back): a new knowledge base's empty partial index built over "
            f"the loaded table {create_ms:.0f} ms (SHARE: every project's writes wait), this "
            f"knowledge base's DROP INDEX and cascade delete {delete_ms:.0f} ms (ACCESS "
            "EXCLUSIVE: every search and write waits). The service runs both CONCURRENTLY after "
            "the commit instead (docs/vector-storage.md).",
            "",
            "Reading the table: 8 clients and Postgres share 2 cores, so latency is about 4x the "
            "CPU time of one search; the vector side is an HNSW scan of ef_search candidates, the "
            "text side scores the chunks holding the query's rarer lexemes, about 1,000 at most "
            '(docs/search.md, "Cost").',
            "",
            f"Command: `scripts/bench-search --chunks {args.chunks} --write`.",
        ]
    )


def write_section(table: str, *, markers: tuple[str, str] = (START, END)) -> None:
    start, end = markers
    section = f"{start}\n{table}\n{end}"
    current = BENCHMARKS.read_text() if BENCHMARKS.exists() else "# Benchmarks\n"
    if start in current and end in current:
        before, rest = current.split(start, 1)
        _, after = rest.split(end, 1)
        updated = before + section + after
    else:
        updated = current.rstrip("\n") + "\n\n" + section + "\n"
    BENCHMARKS.write_text(updated)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--chunks", default="100000", help="chunks to load; with --scale, a comma-separated list"
    )
    parser.add_argument(
        "--scale",
        action="store_true",
        help="the one-node curve: each size's load, index build, recall, latency and memory "
        "(scripts/bench_scale.py)",
    )
    parser.add_argument(
        "--shared-buffers", default=None, help="the server's shared_buffers (--scale)"
    )
    parser.add_argument(
        "--also-shared-buffers",
        default=None,
        help="then restart with this shared_buffers and measure again (--scale)",
    )
    parser.add_argument(
        "--results", type=Path, default=None, help="JSON of measured sizes (--scale)"
    )
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument("--recall-queries", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    parser.add_argument(
        "--overhead",
        action="store_true",
        help="measure what metrics and search analytics add to search p50 over HTTP "
        "(scripts/bench_overhead.py) instead",
    )
    parser.add_argument("--rounds", type=int, default=4, help="alternating rounds (--overhead)")
    parser.add_argument(
        "--hnsw-recall",
        action="store_true",
        help="recall@10 of the HNSW index alone at --chunks, by --clusters, --m, "
        "--ef-construction (scripts/bench_hnsw.py)",
    )
    parser.add_argument("--clusters", type=int, default=1000, help="(--hnsw-recall)")
    parser.add_argument("--m", type=int, default=16, help="(--hnsw-recall)")
    parser.add_argument("--ef-construction", type=int, default=64, help="(--hnsw-recall)")
    parser.add_argument("--build-memory", default="3GB", help="(--hnsw-recall)")
    parser.add_argument("--build-workers", type=int, default=2, help="(--hnsw-recall)")
    args = parser.parse_args()
    if args.hnsw_recall:
        from scripts import bench_hnsw

        args.chunks = int(args.chunks)
        bench_hnsw.main(args)
        return
    if args.scale:
        from scripts import bench_scale

        bench_scale.main(args)
        return
    args.chunks = int(args.chunks)
    if args.overhead:
        from scripts import bench_overhead

        table = asyncio.run(bench_overhead.main_async(args))
        print(table)
        if args.write:
            write_section(table, markers=(bench_overhead.START, bench_overhead.END))
        return
    table = asyncio.run(main_async(args))
    print(table)
    if args.write:
        write_section(table)


if __name__ == "__main__":
    main()
