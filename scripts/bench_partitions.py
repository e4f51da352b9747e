"""Should `chunks` be partitioned by knowledge base? Three layouts of the same rows, measured.

A temporary embedded Postgres holds three tables with the columns that size and search
`chunks` (id, knowledge base, document, text, its tsvector, a 384-d vector), loaded with the
same rows: `--kbs` knowledge bases of `--per-kb` chunks (texts are 1-3 SciFact sentences,
vectors synthetic and clustered, as in the other search benches).

- plain: one table, one partial HNSW index per knowledge base (what Arbor does).
- hash: 8 hash partitions by knowledge base; each knowledge base's partial HNSW index on its
  own partition only.
- list: one partition per knowledge base, one whole-partition HNSW index each.

For each: load and index build times, table and index sizes, a reindex-like churn of one
knowledge base (`--churn`, all of its rows by default, deleted and written again) followed
by the VACUUM that autovacuum would run (the whole table when plain, the one partition
otherwise), and the p50 of vector and full-text top-10 searches within one knowledge base.
The experiment's tables are not Arbor's schema; they isolate what partitioning changes.

Command: `scripts/bench-search --partitions [--kbs 20 --per-kb 10000]`; `--big-kb N` gives the
first knowledge base N chunks (a large tenant beside small ones; the searched one is small).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
import numpy as np
from pgvector.asyncpg import register_vector

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.db.embedded import EmbeddedPostgres  # noqa: E402
from scripts.bench_corpus import claims, make_vectors, sentences  # noqa: E402

LAYOUTS = ("plain", "hash", "list")
HASH_PARTITIONS = 8
COLUMNS = ["id", "knowledge_base_id", "document_id", "text", "embedding"]
PER_DOC = 50


def _table_sql(layout: str, kbs: list[uuid.UUID]) -> list[str]:
    columns = (
        "id uuid NOT NULL, knowledge_base_id uuid NOT NULL, document_id uuid NOT NULL, "
        "text text NOT NULL, tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) "
        "STORED, embedding vector(384)"
    )
    if layout == "plain":
        return [f"CREATE TABLE {layout} ({columns}, PRIMARY KEY (id))"]
    if layout == "hash":
        return [
            f"CREATE TABLE hash ({columns}, PRIMARY KEY (knowledge_base_id, id)) "
            "PARTITION BY HASH (knowledge_base_id)",
            *(
                f"CREATE TABLE hash_{i} PARTITION OF hash "
                f"FOR VALUES WITH (MODULUS {HASH_PARTITIONS}, REMAINDER {i})"
                for i in range(HASH_PARTITIONS)
            ),
        ]
    return [
        f"CREATE TABLE list ({columns}, PRIMARY KEY (knowledge_base_id, id)) "
        "PARTITION BY LIST (knowledge_base_id)",
        *(
            f"CREATE TABLE list_{i} PARTITION OF list FOR VALUES IN ('{kb}')"
            for i, kb in enumerate(kbs)
        ),
    ]


async def _partition_of(db: asyncpg.Connection, layout: str, kb: uuid.UUID) -> str:
    """The table that holds `kb`'s rows (the table itself when plain)."""
    if layout == "plain":
        return layout
    name = await db.fetchval(
        f"SELECT tableoid::regclass::text FROM {layout} WHERE knowledge_base_id = $1 LIMIT 1", kb
    )
    return str(name)


async def _hnsw_sql(db: asyncpg.Connection, layout: str, kbs: list[uuid.UUID]) -> list[str]:
    statements = []
    for i, kb in enumerate(kbs):
        table = await _partition_of(db, layout, kb)
        where = "" if layout == "list" else f" WHERE knowledge_base_id = '{kb}'"
        statements.append(
            f"CREATE INDEX {layout}_hnsw_{i} ON {table} "
            f"USING hnsw (embedding vector_cosine_ops){where}"
        )
    return statements


async def _sizes(db: asyncpg.Connection, layout: str) -> dict[str, float]:
    rows = await db.fetch(
        "SELECT c.relname, c.relkind, pg_relation_size(c.oid) AS bytes, "
        "coalesce(am.amname, '') AS am FROM pg_class c "
        "LEFT JOIN pg_am am ON am.oid = c.relam "
        "WHERE c.relnamespace = 'public'::regnamespace AND (c.relname = $1 "
        "OR c.relname LIKE $1 || '\\_%') AND c.relkind IN ('r', 'i', 't')",
        layout,
    )
    toast = await db.fetchval(
        "SELECT coalesce(sum(pg_total_relation_size(reltoastrelid)), 0) FROM pg_class "
        "WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND reltoastrelid <> 0 "
        "AND (relname = $1 OR relname LIKE $1 || '\\_%')",
        layout,
    )
    mib = 2**20
    return {
        "heap": (sum(r["bytes"] for r in rows if r["relkind"] == "r") + int(toast)) / mib,
        "hnsw": sum(r["bytes"] for r in rows if r["am"] == "hnsw") / mib,
        "gin": sum(r["bytes"] for r in rows if r["am"] == "gin") / mib,
        "btree": sum(r["bytes"] for r in rows if r["am"] == "btree") / mib,
    }


async def _timed(action: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await action()
    return time.perf_counter() - started


async def _p50(db: asyncpg.Connection, sql: str, params: list[tuple[object, ...]]) -> float:
    times = []
    for args in params:
        started = time.perf_counter()
        await db.fetch(sql, *args)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def measure(
    db: asyncpg.Connection,
    layout: str,
    kbs: list[uuid.UUID],
    rows: list[tuple[object, ...]],
    queries: tuple[list[np.ndarray], list[str]],
    churn: float,
) -> dict[str, float]:
    for statement in _table_sql(layout, kbs):
        await db.execute(statement)
    result: dict[str, float] = {}

    async def load() -> None:
        for first in range(0, len(rows), 50_000):
            await db.copy_records_to_table(
                layout, records=rows[first : first + 50_000], columns=COLUMNS
            )

    result["load_s"] = await _timed(load)

    async def secondary() -> None:
        await db.execute(f"CREATE INDEX {layout}_doc ON {layout} (knowledge_base_id, document_id)")
        await db.execute(f"CREATE INDEX {layout}_tsv ON {layout} USING gin (tsv)")

    result["btree_gin_s"] = await _timed(secondary)
    hnsw = await _hnsw_sql(db, layout, kbs)

    async def build() -> None:
        for statement in hnsw:
            await db.execute(statement)

    result["hnsw_s"] = await _timed(build)
    await db.execute(f"VACUUM ANALYZE {layout}")
    result.update(await _sizes(db, layout))

    # Searches within one knowledge base, its id inlined as Arbor's statement does (a partial
    # index is chosen only for a literal the planner can match).
    kb = kbs[len(kbs) // 2]
    vectors, texts = queries
    await db.execute("SET hnsw.ef_search = 40")
    vector_sql = (
        f"SELECT id FROM {layout} WHERE knowledge_base_id = '{kb}' "
        "ORDER BY embedding <=> $1 LIMIT 10"
    )
    text_sql = (
        f"SELECT id FROM {layout} WHERE knowledge_base_id = '{kb}' "
        "AND tsv @@ plainto_tsquery('english', $1) "
        "ORDER BY ts_rank(tsv, plainto_tsquery('english', $1)) DESC LIMIT 10"
    )
    await _p50(db, vector_sql, [(v,) for v in vectors[:20]])  # warm
    plan = "\n".join(row[0] for row in await db.fetch(f"EXPLAIN {vector_sql}", vectors[0]))
    result["vector_by_hnsw"] = float("hnsw" in plan)
    result["vector_p50_ms"] = await _p50(db, vector_sql, [(v,) for v in vectors])
    await _p50(db, text_sql, [(t,) for t in texts[:20]])
    result["text_p50_ms"] = await _p50(db, text_sql, [(t,) for t in texts])
    # Any of the query's words, as Arbor's text side matches (before its budget prunes).
    any_sql = text_sql.replace(
        "plainto_tsquery('english', $1)",
        "replace(plainto_tsquery('english', $1)::text, '&', '|')::tsquery",
    )
    await _p50(db, any_sql, [(t,) for t in texts[:20]])
    result["text_any_p50_ms"] = await _p50(db, any_sql, [(t,) for t in texts])

    # A reindex of one knowledge base (the last: a small one beside `--big-kb`), then the
    # VACUUM autovacuum would run. Under about 2 % of a table's pages with dead rows, VACUUM
    # skips its indexes altogether; past it, it scans every index of the table.
    churned = kbs[-1]
    table = await _partition_of(db, layout, churned)
    kept = [row for row in rows if row[1] == churned]
    replaced = kept[: int(len(kept) * churn)]
    again = [(uuid.uuid4(), *row[1:]) for row in replaced]

    async def rewrite() -> None:
        await db.execute(
            f"DELETE FROM {layout} WHERE knowledge_base_id = $1 AND id = ANY($2::uuid[])",
            churned,
            [row[0] for row in replaced],
        )
        await db.copy_records_to_table(layout, records=again, columns=COLUMNS)

    result["churn_s"] = await _timed(rewrite)
    result["vacuum_s"] = await _timed(lambda: db.execute(f"VACUUM {table}"))
    await db.execute(f"DROP TABLE {layout}")
    return result


async def main_async(args: argparse.Namespace) -> str:
    rng = np.random.default_rng(11)
    kbs = [uuid.uuid4() for _ in range(args.kbs)]
    sizes = [args.big_kb or args.per_kb] + [args.per_kb] * (args.kbs - 1)
    owner = np.repeat(np.arange(args.kbs), sizes)
    n = int(sum(sizes))
    pool = sentences()
    vectors = make_vectors(rng, n)
    starts = rng.integers(0, len(pool) - 3, n)
    lengths = rng.integers(1, 4, n)
    documents = [uuid.uuid4() for _ in range(n // PER_DOC + 1)]
    rows: list[tuple[object, ...]] = [
        (
            uuid.uuid4(),
            kbs[owner[i]],
            documents[i // PER_DOC],
            " ".join(pool[starts[i] : starts[i] + lengths[i]]),
            vectors[i],
        )
        for i in range(n)
    ]
    searched = len(kbs) // 2
    picks = rng.integers(0, args.per_kb, args.queries) + int(sum(sizes[:searched]))
    query_vectors = [vectors[i] + rng.standard_normal(384).astype(np.float32) * 0.05 for i in picks]
    query_texts = claims()[: args.queries]
    lines = []
    with tempfile.TemporaryDirectory(prefix="arbor-partitions-") as tmp:
        server = EmbeddedPostgres(Path(tmp) / "pg", delete_on_close=True)
        url = server.start()
        try:
            db = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
            await db.execute("CREATE EXTENSION IF NOT EXISTS vector")
            await register_vector(db)
            await db.execute(f"SET maintenance_work_mem = '{args.build_memory}'")
            for layout in LAYOUTS:
                figures = await measure(
                    db, layout, kbs, rows, (query_vectors, query_texts), args.churn
                )
                print(layout, {k: round(v, 2) for k, v in figures.items()}, flush=True)
                lines.append(
                    f"| {layout} | {figures['load_s']:.1f} | {figures['btree_gin_s']:.1f} | "
                    f"{figures['hnsw_s']:.1f} | {figures['heap']:.0f} | {figures['hnsw']:.0f} | "
                    f"{figures['gin']:.0f} | {figures['btree']:.0f} | "
                    f"{figures['vector_p50_ms']:.2f}"
                    f"{'' if figures['vector_by_hnsw'] else ' (no HNSW)'} | "
                    f"{figures['text_p50_ms']:.2f} | {figures['text_any_p50_ms']:.2f} | "
                    f"{figures['churn_s']:.2f} | {figures['vacuum_s']:.2f} |"
                )
            await db.close()
        finally:
            server.stop()
    header = (
        "| layout | load s | btree + GIN s | HNSW s | heap MiB | HNSW MiB | GIN MiB | btree MiB "
        "| vector p50 ms | text (all words) p50 ms | text (any word) p50 ms | rewrite s "
        "| VACUUM s |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    return "\n".join([header, *lines])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kbs", type=int, default=20)
    parser.add_argument("--per-kb", type=int, default=10_000)
    parser.add_argument(
        "--big-kb", type=int, default=0, help="chunks of the first knowledge base, if not --per-kb"
    )
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--build-memory", default="512MB")
    parser.add_argument(
        "--churn", type=float, default=1.0, help="share of one knowledge base's rows rewritten"
    )
    print(asyncio.run(main_async(parser.parse_args())))


if __name__ == "__main__":
    main()
