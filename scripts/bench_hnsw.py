"""HNSW recall@10 of pgvector on the search bench's synthetic vectors, by size, cluster count
and index parameters: `scripts/bench-search --hnsw-recall`.

The service's vector search at 1M chunks found 0.80 of the exact top 10 at ef_search 100
(docs/benchmarks.md). This measures the index alone (a plain table, `ORDER BY e <=> q LIMIT
10`, no service statement), so that a shortfall can be told apart: the graph's or the
statement's, the size's or the data's (chunks per cluster), and what m, ef_construction and
ef_search buy back. Queries are vectors near random chunks, as in the scale bench; the ground
truth is an exact scan in numpy.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import struct
import tempfile
import time
from pathlib import Path

import asyncpg
import numpy as np

from app.chunks.copy_rows import vector_binary
from app.db.embedded import EmbeddedPostgres
from scripts.bench_corpus import DIMS, make_vectors

EF_SEARCH = (40, 100, 200, 400, 800)
COPY_ROWS = 100_000
_SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_ROW = struct.Struct(">hiii")  # two fields; the int4 id (length 4, value); the vector's length


def copy_binary(vectors: np.ndarray, start: int) -> io.BytesIO:
    """COPY's binary form of rows `(start + i, vectors[i])`."""
    out = io.BytesIO()
    out.write(_SIGNATURE)
    size = len(vector_binary(vectors[0]))
    for offset, vector in enumerate(vectors):
        out.write(_ROW.pack(2, 4, start + offset, size))
        out.write(vector_binary(vector))
    out.write(struct.pack(">h", -1))
    out.seek(0)
    return out


def vector_text(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.7f}" for x in vector) + "]"


async def measure(url: str, args: argparse.Namespace) -> list[str]:
    rng = np.random.default_rng(7)
    vectors = make_vectors(rng, args.chunks, clusters=args.clusters)
    picks = rng.integers(0, args.chunks, args.recall_queries)
    noise = (0.3 / np.sqrt(DIMS)) * rng.standard_normal((args.recall_queries, DIMS))
    queries = vectors[picks] + noise.astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    exact = [set(np.argpartition(-(vectors @ query), 10)[:10].tolist()) for query in queries]
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        await connection.execute("CREATE EXTENSION IF NOT EXISTS vector")
        await connection.execute(f"CREATE TABLE t (id int, e vector({DIMS}))")
        for start in range(0, args.chunks, COPY_ROWS):
            rows = copy_binary(vectors[start : start + COPY_ROWS], start)
            await connection.copy_to_table("t", source=rows, columns=["id", "e"], format="binary")
        await connection.execute(
            f"SET maintenance_work_mem = '{args.build_memory}'; "
            f"SET max_parallel_maintenance_workers = {args.build_workers}"
        )
        started = time.perf_counter()
        await connection.execute(
            "CREATE INDEX t_hnsw ON t USING hnsw (e vector_cosine_ops) "
            f"WITH (m = {args.m}, ef_construction = {args.ef_construction})"
        )
        build_s = time.perf_counter() - started
        index_mb = await connection.fetchval("SELECT pg_relation_size('t_hnsw')") / 2**20
        cells = []
        for ef in EF_SEARCH:
            await connection.execute(f"SET hnsw.ef_search = {ef}")
            found, timings = [], []
            for query, truth in zip(queries, exact, strict=True):
                started = time.perf_counter()
                rows = await connection.fetch(
                    "SELECT id FROM t ORDER BY e <=> $1::vector LIMIT 10", vector_text(query)
                )
                timings.append(time.perf_counter() - started)
                found.append(len({row["id"] for row in rows} & truth) / 10)
            cells.append(f"{np.mean(found):.3f} ({np.median(timings) * 1000:.1f} ms)")
            print(f"ef_search {ef}: {cells[-1]}", flush=True)
    finally:
        await connection.close()
    per_cluster = args.chunks // args.clusters
    return [
        f"| {args.chunks:,} | {args.clusters:,} ({per_cluster:,}) | {args.m} / "
        f"{args.ef_construction} | {build_s:.0f} | {index_mb:,.0f} | " + " | ".join(cells) + " |"
    ]


def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="arbor-hnsw-") as tmp:
        server = EmbeddedPostgres(Path(tmp) / "pg", shared_buffers=args.shared_buffers or "4GB")
        url = server.start()
        try:
            rows = asyncio.run(measure(url, args))
        finally:
            server.stop()
    print(
        "| chunks | clusters (chunks each) | m / ef_construction | build s | index MB | "
        + " | ".join(f"ef_search {ef}: recall@10 (p50)" for ef in EF_SEARCH)
        + " |"
    )
    print("| --- | --- | --- | --- | --- | " + " | ".join("---" for _ in EF_SEARCH) + " |")
    print("\n".join(rows))
