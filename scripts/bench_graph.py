"""Graph extraction throughput and graph search latency.

1. The local extractor (spaCy en_core_web_sm) over chunk-sized texts of SciFact abstracts
   (3-6 consecutive sentences, about what the default chunker makes): chunks/s in one thread,
   and the enricher (LexRank summaries, YAKE keywords, entities) over the same texts.
2. A graph of `--chunks` chunks' worth, shaped by what step 1 measured per chunk (entity
   mentions, new entities, relations): names and facts from the extracted vocabulary, made
   unique, with synthetic 384-d vectors, written with COPY into a temporary embedded Postgres.
   Then standard and quick graph searches (SciFact claims as queries) in a transaction scoped
   like a request's, as a key with principals (the access-list joins in the plan): p50 / p95.
   Each search step (app/graph/search_repository.py and the growth's reads) is timed too:
   the median per step says where a mode's time goes. Then the knowledge base's HNSW indexes
   on name and fact vectors are built (app/graph/vector_index.py) and both modes measured
   again over the same graph and queries.
3. The cost the graph adds to ingesting a knowledge base that has it off: the settings check
   the store step makes per batch.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import re
import statistics
import sys
import tempfile
import time
import timeit
import uuid
from pathlib import Path
from typing import Any

import numpy as np
from pgvector.asyncpg import register_vector
from sqlalchemy import event, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from app.db.embedded import EmbeddedPostgres  # noqa: E402
from app.db.engine import Database  # noqa: E402
from app.db.migrate import upgrade_to_head  # noqa: E402
from app.graph import repository as graph_repository  # noqa: E402
from app.graph import retrieval, search_repository  # noqa: E402
from app.graph import vector_index as graph_vector_index  # noqa: E402
from app.graph.enrich import enrich_tree  # noqa: E402
from app.graph.extraction import ChunkInput  # noqa: E402
from app.graph.local import extract_sync, nlp  # noqa: E402
from app.graph.repository import Visibility  # noqa: E402
from app.graph.settings import EnrichmentSettings, GraphSettings, wants_stage  # noqa: E402
from app.graph.stage import merge  # noqa: E402
from app.ingestion.parse import parse_document  # noqa: E402
from app.knowledge_bases import service as knowledge_bases  # noqa: E402
from app.knowledge_bases.schemas import EmbeddingConfig, KnowledgeBaseCreate  # noqa: E402
from app.models import KnowledgeBase, Project  # noqa: E402

DATA = Path("/work/shared/eval/scifact")
for candidate in (ROOT.parent / "shared" / "eval" / "scifact", DATA):
    if candidate.exists():
        DATA = candidate
        break
DIMS = 384
PER_DOC = 50


def chunk_texts(n: int, rng: np.random.Generator) -> list[str]:
    with gzip.open(DATA / "corpus.jsonl.gz", "rt", encoding="utf-8") as lines:
        docs = [json.loads(line)["text"] for line in lines]
    texts = []
    for i in rng.permutation(len(docs))[:n]:
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", docs[i]) if s]
        texts.append(" ".join(sentences[: int(rng.integers(3, 7))]))
    return texts


def claims() -> list[str]:
    with gzip.open(DATA / "queries.jsonl.gz", "rt", encoding="utf-8") as lines:
        return [json.loads(line)["text"] for line in lines]


def vec(rng: np.random.Generator, n: int) -> np.ndarray:
    vectors = rng.standard_normal((n, DIMS)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def measure_extraction(texts: list[str]) -> dict[str, float]:
    started = time.perf_counter()
    nlp()
    load_s = time.perf_counter() - started
    chunks = [ChunkInput(uuid.uuid4(), t) for t in texts]
    started = time.perf_counter()
    found = extract_sync(chunks)
    extract_s = time.perf_counter() - started
    merged = merge(found)
    doc = "\n\n".join(texts).encode()
    parsed = parse_document(doc, filename="bench.txt", content_type=None, format=None, title=None)
    started = time.perf_counter()
    enrich_tree(parsed.root, EnrichmentSettings(summaries=True, keywords=True, entities=True))
    enrich_s = time.perf_counter() - started
    return {
        "load_s": load_s,
        "chunks_per_s": len(texts) / extract_s,
        "enrich_chunks_per_s": len(texts) / enrich_s,
        "mentions_per_chunk": len(merged.entity_mentions) / len(texts),
        "entities_per_chunk": len(merged.entities) / len(texts),
        "relations_per_chunk": len(merged.relation_mentions) / len(texts),
        "vocabulary": float(len(merged.entities)),
        "_names": [name for name, _t in merged.entities.values()],  # type: ignore[dict-item]
        "_facts": sorted({key[3] for key in merged.relations}),  # type: ignore[dict-item]
    }


async def build_graph(
    db: Database, chunks: int, shape: dict[str, float], rng: np.random.Generator
) -> tuple[uuid.UUID, uuid.UUID]:
    names: list[str] = shape["_names"]  # type: ignore[assignment]
    facts: list[str] = shape["_facts"]  # type: ignore[assignment]
    n_entities = max(100, int(shape["entities_per_chunk"] * chunks))
    n_relations = max(100, int(shape["relations_per_chunk"] * chunks))
    mentions_per_chunk = max(1, round(shape["mentions_per_chunk"]))
    async with db.transaction() as session:
        project = (await session.execute(Project.__table__.select())).first()
        assert project is not None
        kb = await knowledge_bases.create(
            session,
            project_id=project.id,
            data=KnowledgeBaseCreate(
                name="graphbench",
                embedding=EmbeddingConfig(provider="none", dimensions=DIMS),
                graph=GraphSettings(enabled=True),
            ),
        )
        documents = [uuid.uuid4() for _ in range(max(1, chunks // PER_DOC))]
        connection = await session.connection()
        raw = (await connection.get_raw_connection()).driver_connection
        assert raw is not None
        await register_vector(raw)  # COPY is binary: vectors need pgvector's codec
        # Every tenth document has an access list the benchmark's caller does not hold.
        await raw.copy_records_to_table(
            "documents",
            records=[
                (
                    d,
                    project.id,
                    kb.id,
                    "ready",
                    '{"principals": ["group:other"]}' if i % 10 == 0 else None,
                )
                for i, d in enumerate(documents)
            ],
            columns=["id", "project_id", "knowledge_base_id", "status", "access"],
        )
        entity_ids = [uuid.uuid4() for _ in range(n_entities)]
        await raw.copy_records_to_table(
            "graph_entities",
            records=[
                (
                    e,
                    project.id,
                    kb.id,
                    f"{names[i % len(names)].lower()} {i}",
                    f"{names[i % len(names)]} {i}",
                    "CONCEPT",
                    v,
                )
                for i, (e, v) in enumerate(zip(entity_ids, vec(rng, n_entities), strict=True))
            ],
            columns=[
                "id",
                "project_id",
                "knowledge_base_id",
                "key",
                "name",
                "type",
                "name_embedding",
            ],
        )
        mentions = {}
        for c in range(chunks):
            chunk = uuid.uuid4()
            doc = documents[c // PER_DOC]
            for e in rng.integers(0, n_entities, mentions_per_chunk):
                mentions[(entity_ids[e], chunk)] = doc
        await raw.copy_records_to_table(
            "graph_entity_mentions",
            records=[
                (e, c, d, project.id, kb.id, "x", facts[hash(c) % len(facts)], uuid.UUID(int=0))
                for (e, c), d in mentions.items()
            ],
            columns=[
                "entity_id",
                "chunk_id",
                "document_id",
                "project_id",
                "knowledge_base_id",
                "surface",
                "description",
                "extraction",
            ],
        )
        relation_rows = []
        relation_mentions = []
        by_entity = {}
        for (e, c), d in mentions.items():
            by_entity.setdefault(e, (c, d))
        mentioned = list(by_entity)
        for i, v in enumerate(vec(rng, n_relations)):
            s, t = rng.integers(0, len(mentioned), 2)
            r = uuid.uuid4()
            relation_rows.append(
                (
                    r,
                    project.id,
                    kb.id,
                    mentioned[s],
                    mentioned[t],
                    "related_to",
                    f"{facts[i % len(facts)]} ({i})",
                    v,
                )
            )
            chunk, doc = by_entity[mentioned[s]]
            relation_mentions.append((r, chunk, doc, project.id, kb.id, uuid.UUID(int=0)))
        await raw.copy_records_to_table(
            "graph_relations",
            records=relation_rows,
            columns=[
                "id",
                "project_id",
                "knowledge_base_id",
                "source_id",
                "target_id",
                "type",
                "fact",
                "fact_embedding",
            ],
        )
        await raw.copy_records_to_table(
            "graph_relation_mentions",
            records=relation_mentions,
            columns=[
                "relation_id",
                "chunk_id",
                "document_id",
                "project_id",
                "knowledge_base_id",
                "extraction",
            ],
        )
    async with db.transaction() as session:
        for table in (
            "documents",
            "graph_entities",
            "graph_entity_mentions",
            "graph_relations",
            "graph_relation_mentions",
        ):
            await session.execute(text(f"ANALYZE {table}"))
    print(
        f"graph of {chunks} chunks: {n_entities} entities, {len(mentions)} mentions, "
        f"{n_relations} relations, {len(documents)} documents"
    )
    return kb.id, project.id


STEPS: dict[str, list[float]] = {}
BUDGET_MS = search_repository.TRIGRAM_STEP_BUDGET_MS
EXPLAIN = False
TIMED_STEPS = (
    (search_repository, "pattern_nodes"),
    (search_repository, "pattern_edges"),
    (search_repository, "trigram_nodes"),
    (search_repository, "trigram_edges"),
    (search_repository, "vector_nodes"),
    (search_repository, "vector_edges"),
    (graph_repository, "entities_by_id"),
    (graph_repository, "relations"),
)


def time_steps() -> None:
    """Wrap the search steps so that each call's time is recorded under its name."""
    for module, name in TIMED_STEPS:
        step = getattr(module, name)

        async def wrapped(*args: object, _step=step, _name=name, **kwargs: object) -> object:  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            try:
                return await _step(*args, **kwargs)
            finally:
                STEPS.setdefault(_name, []).append((time.perf_counter() - started) * 1000)

        setattr(module, name, wrapped)


async def build_indexes(db: Database, kb_id: uuid.UUID) -> None:
    async with db.transaction() as session:
        kb = await session.get(KnowledgeBase, kb_id)
        assert kb is not None
        await session.execute(text("SET LOCAL maintenance_work_mem = '2GB'"))
        for vectors in graph_vector_index.INDEXED:
            started = time.perf_counter()
            await session.execute(
                text(graph_vector_index.create_index_sql(vectors, kb, concurrently=False))
            )
            print(f"HNSW index on {vectors.table}: built in {time.perf_counter() - started:.0f} s")


async def measure_modes(
    db: Database,
    kb: uuid.UUID,
    project: uuid.UUID,
    queries: list[str],
    vectors: np.ndarray,
    n: int,
    label: str,
) -> None:
    for mode in ("standard", "standard, no step budget", "quick"):
        search = mode.split(",")[0]
        # 0: no statement timeout, every threshold runs to the end (as before the budget).
        budget = 0 if "no step budget" in mode else BUDGET_MS
        search_repository.TRIGRAM_STEP_BUDGET_MS = budget
        if EXPLAIN:
            await explain(db, kb, project, search, queries[1], [float(x) for x in vectors[1]])
        await timed(db, kb, project, search, queries[0], [float(x) for x in vectors[0]])
        STEPS.clear()
        times = [
            await timed(
                db, kb, project, search, queries[i % len(queries)], [float(x) for x in vectors[i]]
            )
            for i in range(n)
        ]
        search_repository.TRIGRAM_STEP_BUDGET_MS = BUDGET_MS
        times.sort()
        print(
            f"graph search {mode} ({label}): p50 {statistics.median(times):.0f} ms, "
            f"p95 {times[int(0.95 * (len(times) - 1))]:.0f} ms over {len(times)} queries"
        )
        steps = ", ".join(
            f"{name} {statistics.median(ms):.0f} ms x{len(ms) / n:.1f}"
            for name, ms in STEPS.items()
        )
        print(f"  per step (median per call, calls per query): {steps}")


async def explain(
    db: Database, kb: uuid.UUID, project: uuid.UUID, mode: str, query: str, vector: list[float]
) -> None:
    """EXPLAIN ANALYZE of every statement one search sends, replayed in order in a transaction
    scoped like the request's (the app role, its settings and search_path)."""
    sent: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        sent.append((statement, parameters))

    event.listen(db.engine.sync_engine, "before_cursor_execute", record)
    try:
        await timed(db, kb, project, mode, query, vector)
    finally:
        event.remove(db.engine.sync_engine, "before_cursor_execute", record)
    print(f"--- EXPLAIN ANALYZE, {mode}: {query}")
    async with db.transaction(project_id=project) as session:
        connection = await session.connection()
        for statement, parameters in sent:
            if not statement.lstrip().upper().startswith(("SELECT", "WITH")) or (
                "set_config(" in statement
            ):
                await connection.exec_driver_sql(statement, parameters)
                continue
            plan = await connection.exec_driver_sql(
                "EXPLAIN (ANALYZE, BUFFERS) " + statement, parameters
            )
            print(" ".join(statement.split())[:300])
            print("\n".join(row[0] for row in plan))


async def timed(
    db: Database, kb: uuid.UUID, project: uuid.UUID, mode: str, query: str, vector: list[float]
) -> float:
    vis = Visibility(kb, frozenset({"group:staff"}))

    async def vector_of() -> list[float] | None:
        return vector

    started = time.perf_counter()
    async with db.transaction(project_id=project) as session:
        if mode == "quick":
            await retrieval.quick(
                session, vis, query, vector_of=vector_of, search_limit=50, max_growth_levels=3
            )
        else:
            await retrieval.standard(session, vis, query, vector_of=vector_of)
    return (time.perf_counter() - started) * 1000


async def main_async(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(7)
    texts = chunk_texts(args.extract_chunks, rng)
    shape = measure_extraction(texts)
    print(
        f"local extraction: {shape['chunks_per_s']:.1f} chunks/s "
        f"(model load {shape['load_s']:.1f} s; {shape['mentions_per_chunk']:.1f} mentions, "
        f"{shape['entities_per_chunk']:.1f} new entities, {shape['relations_per_chunk']:.1f} "
        f"relations per chunk over {len(texts)} chunks)"
    )
    print(
        f"enrichment (summaries, keywords, entities): {shape['enrich_chunks_per_s']:.1f} chunks/s"
    )
    off = timeit.timeit(lambda: wants_stage({}, {}), number=100_000) / 100_000
    print(f"graph off: the store step's check costs {off * 1e9:.0f} ns per batch, no query")
    with tempfile.TemporaryDirectory(prefix="arbor-graph-bench-") as tmp:
        server = EmbeddedPostgres(Path(tmp) / "pg", delete_on_close=True)
        url = server.start()
        try:
            await asyncio.to_thread(upgrade_to_head, url)
            db = Database(url, Settings(env="test"))
            started = time.perf_counter()
            kb, project = await build_graph(db, args.chunks, shape, rng)
            print(f"loaded in {time.perf_counter() - started:.0f} s")
            queries = claims()
            vectors = vec(rng, args.queries)
            time_steps()
            await measure_modes(db, kb, project, queries, vectors, args.queries, "no vector index")
            if not args.no_index:
                await build_indexes(db, kb)
                await measure_modes(db, kb, project, queries, vectors, args.queries, "HNSW")
            await db.dispose()
        finally:
            server.stop()


def main() -> None:
    global EXPLAIN
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extract-chunks", type=int, default=200)
    parser.add_argument("--chunks", type=int, default=2_000, help="chunks' worth of graph")
    parser.add_argument("--queries", type=int, default=10)
    parser.add_argument(
        "--explain", action="store_true", help="EXPLAIN ANALYZE one search's statements per mode"
    )
    parser.add_argument(
        "--no-index", action="store_true", help="skip building the HNSW indexes and re-measuring"
    )
    args = parser.parse_args()
    EXPLAIN = args.explain
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
