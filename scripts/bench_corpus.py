"""The synthetic corpus of the search benches, loaded with COPY and indexed once.

Texts are 1-3 consecutive sentences of SciFact abstracts; vectors are synthetic 384-d unit
vectors drawn around 1,000 cluster centres (real embeddings cluster too; uniform random vectors
are a worst case no embedder produces). Documents of 50 chunks carry `metadata.group` = 0..49,
so one group is a 2% filter.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import re
import time
import uuid
from pathlib import Path

import numpy as np
from pgvector.asyncpg import register_vector
from sqlalchemy import text

from app.chunks.vector_index import create_vector_index, drop_vector_index
from app.db.engine import Database
from app.knowledge_bases import service as knowledge_bases
from app.knowledge_bases.schemas import EmbeddingConfig, KnowledgeBaseCreate
from app.models import KnowledgeBase, Project
from app.search import text_statistics

ROOT = Path(__file__).resolve().parents[1]
DATA = Path("/work/shared/eval/scifact")
for candidate in (ROOT.parent / "shared" / "eval" / "scifact", DATA):
    if candidate.exists():
        DATA = candidate
        break
DIMS = 384
GROUPS = 50


def sentences() -> list[str]:
    with gzip.open(DATA / "corpus.jsonl.gz", "rt", encoding="utf-8") as lines:
        docs = [json.loads(line) for line in lines]
    found: list[str] = []
    for doc in docs:
        found.extend(s for s in re.split(r"(?<=[.!?])\s+", doc["text"]) if len(s) > 20)
    return found


def claims() -> list[str]:
    with gzip.open(DATA / "queries.jsonl.gz", "rt", encoding="utf-8") as lines:
        return [json.loads(line)["text"] for line in lines]


def make_vectors(rng: np.random.Generator, n: int, *, clusters: int = 1000) -> np.ndarray:
    centres = rng.standard_normal((clusters, DIMS)).astype(np.float32)
    # Drawn as float32 and normalised in place: at 1M chunks a float64 draw alone is 3 GB.
    vectors = rng.standard_normal((n, DIMS), dtype=np.float32)
    vectors *= 0.6
    vectors += centres[rng.integers(0, clusters, n)]
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors


COPY_BATCH = 100_000  # rows per COPY: bounds the client's memory at 1M chunks


async def load(
    db: Database, n: int, rng: np.random.Generator, *, build_memory: str = "1GB"
) -> tuple[KnowledgeBase, tuple[np.ndarray, np.ndarray, dict[uuid.UUID, int]], dict[str, float]]:
    """Load `n` chunks with COPY, build the HNSW index once, settle; seconds of each phase."""
    pool = sentences()
    vectors = make_vectors(rng, n)
    per_doc = 50
    phases: dict[str, float] = {}
    started = time.perf_counter()
    async with db.transaction() as session:
        project = (await session.execute(Project.__table__.select())).first()
        assert project is not None
        created = await knowledge_bases.create(
            session,
            project_id=project.id,
            data=KnowledgeBaseCreate(
                name="bench", embedding=EmbeddingConfig(provider="none", dimensions=DIMS)
            ),
        )
        kb = await session.get(KnowledgeBase, created.id)
        assert kb is not None
        # Bulk load without the index, then build it once (as a re-index would).
        await drop_vector_index(session, knowledge_base_id=kb.id)
        doc_ids = [uuid.uuid4() for _ in range(n // per_doc)]
        groups = np.arange(len(doc_ids)) % GROUPS
        connection = await session.connection()
        raw = (await connection.get_raw_connection()).driver_connection
        assert raw is not None
        await register_vector(raw)  # COPY is binary: vectors need pgvector's codec
        await raw.copy_records_to_table(
            "documents",
            records=[
                (
                    d,
                    project.id,
                    kb.id,
                    f"doc {i}",
                    "ready",
                    json.dumps({"group": int(groups[i])}),
                    per_doc,
                )
                for i, d in enumerate(doc_ids)
            ],
            columns=[
                "id",
                "project_id",
                "knowledge_base_id",
                "title",
                "status",
                "metadata",
                "chunk_count",
            ],
        )
        starts = rng.integers(0, len(pool) - 3, n)
        lengths = rng.integers(1, 4, n)
        for first in range(0, n, COPY_BATCH):
            records = []
            for i in range(first, min(n, first + COPY_BATCH)):
                body = " ".join(pool[starts[i] : starts[i] + lengths[i]])
                records.append(
                    (uuid.uuid4(), project.id, kb.id, doc_ids[i // per_doc], i % per_doc, body,
                     "x", vectors[i])
                )  # fmt: skip
            await raw.copy_records_to_table(
                "chunks",
                records=records,
                columns=[
                    "id", "project_id", "knowledge_base_id", "document_id", "chunk_index",
                    "text", "text_sha256", "embedding",
                ],
            )  # fmt: skip
    phases["copy"] = time.perf_counter() - started
    started = time.perf_counter()
    progress = asyncio.create_task(report_build_progress(db))
    try:
        async with db.transaction() as session:
            # In memory or not: pgvector says so in a NOTICE when the graph outgrows it.
            connection = await session.connection()
            raw = (await connection.get_raw_connection()).driver_connection
            assert raw is not None
            raw.add_log_listener(lambda _c, message: print(f"postgres: {message}", flush=True))
            await session.execute(text(f"SET maintenance_work_mem = '{build_memory}'"))
            await create_vector_index(
                session, knowledge_base_id=kb.id, dimensions=DIMS, m=16, ef_construction=64
            )
    finally:
        progress.cancel()
    phases["index"] = time.perf_counter() - started
    started = time.perf_counter()
    # What autovacuum does within a minute of a load this size (it is past its insert
    # threshold): statistics, hint bits and the visibility map, and the GIN indexes' pending
    # lists merged. Without it every search scans the pending list a load leaves behind.
    autocommit = db.engine.execution_options(isolation_level="AUTOCOMMIT")
    async with autocommit.connect() as connection:
        await connection.execute(text("VACUUM (ANALYZE) chunks"))
        await connection.execute(text("VACUUM (ANALYZE) documents"))
    async with db.transaction() as session:
        # What the `text_stats` job does soon after a load (search queues it when missing).
        await text_statistics.refresh(session, knowledge_base_id=kb.id, project_id=project.id)
    phases["settle"] = time.perf_counter() - started
    positions = {doc_id: i for i, doc_id in enumerate(doc_ids)}
    return kb, (vectors, groups[np.arange(n) // per_doc], positions), phases


async def report_build_progress(db: Database, every_s: float = 60.0) -> None:
    """Print the index build's progress (pg_stat_progress_create_index) until cancelled."""
    started = time.perf_counter()
    while True:
        await asyncio.sleep(every_s)
        async with db.engine.connect() as connection:
            row = (
                await connection.execute(
                    text(
                        "SELECT phase, tuples_done, tuples_total FROM pg_stat_progress_create_index"
                    )
                )
            ).first()
        if row is not None:
            print(
                f"index build {time.perf_counter() - started:.0f} s: {row.phase}, "
                f"{row.tuples_done:,} of {row.tuples_total:,} tuples",
                flush=True,
            )
