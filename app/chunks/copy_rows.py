"""Chunk rows written by COPY: new rows straight into `chunks`, upserts through a staging table.

Vectors travel as pgvector's binary float32 and text search configurations as their oid, on
codecs set for the COPY alone.
"""

from __future__ import annotations

import json
import struct
import uuid
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import asyncpg
import numpy as np
from pgvector import Vector
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.driver import session_driver
from app.db.tenancy import elevated
from app.db.type_cache import learn_types
from app.models import KnowledgeBase

STAGE_COLUMNS = (
    "id", "document_id", "chunk_index", "text", "text_sha256", "node_path", "depth",
    "leaf_node_id", "section_titles", "doc_title", "page_start", "page_end", "start_offset",
    "end_offset", "metadata", "own_metadata", "embedding", "embedding_computed", "spans",
)  # fmt: skip


# Postgres sends an oid (a regconfig, for one) as a network-order unsigned 32-bit integer.
OID = struct.Struct("!I")
# pgvector's binary `vector`: dimensions and an unused field (int16 each), then float32 values,
# all big-endian.
VECTOR_HEADER = struct.Struct(">HH")


def vector_binary(values: Sequence[float] | np.ndarray) -> bytes:
    """pgvector's binary form of a vector, as `pgvector.Vector.to_binary` gives it, without
    the wrapper object (a third of the cost, and a bulk load encodes thousands)."""
    array = np.asarray(values, dtype=">f4")
    if array.ndim != 1:
        raise ValueError(f"a vector has one dimension, not {array.ndim}")
    return VECTOR_HEADER.pack(len(array), 0) + array.tobytes()


@dataclass(frozen=True, slots=True)
class ChunkRow:
    """One chunk ready to be written: ids resolved, vector computed or None."""

    id: uuid.UUID
    document_id: uuid.UUID
    chunk_index: int
    text: str
    text_sha256: str
    node_path: list[str]
    depth: int
    leaf_node_id: str | None
    section_titles: list[str]
    doc_title: str
    page_start: int | None
    page_end: int | None
    start_offset: int | None
    end_offset: int | None
    metadata: dict[str, Any]
    # Whether `metadata` is the chunk's own (chunk API) rather than a copy of its document's
    # (ingestion): search decides metadata filters per document only where no chunk has own.
    own_metadata: bool
    # Supplied (float32 array) or computed by the embedder.
    embedding: Sequence[float] | np.ndarray | None
    # Whether the knowledge base's model computed `embedding`: only such vectors are reused
    # for other chunks of the same text; a client's could be anything.
    embedding_computed: bool
    # The merged sections of a hierarchical chunk (ingestion only); None otherwise.
    spans: list[dict[str, Any]] | None = None

    def record(self) -> tuple[Any, ...]:
        return (
            self.id, self.document_id, self.chunk_index, self.text, self.text_sha256,
            self.node_path, self.depth, self.leaf_node_id, self.section_titles, self.doc_title,
            self.page_start, self.page_end, self.start_offset, self.end_offset,
            json.dumps(self.metadata) if self.metadata else "{}", self.own_metadata,
            self.embedding, self.embedding is not None and self.embedding_computed,
            json.dumps(self.spans) if self.spans else None,
        )  # fmt: skip


async def insert_rows(
    session: AsyncSession, kb: KnowledgeBase, rows: Iterable[ChunkRow]
) -> list[ChunkRow]:
    """COPY rows whose ids are new (generated here, or freed in this transaction) straight
    into the table: a third less time than staging them for an upsert (docs/benchmarks.md).
    An id that exists after all fails the whole statement on the primary key. Returns the
    rows written.

    `rows` is consumed while the COPY streams (asyncpg sends every 512 KiB), so a generator
    that builds them lets Postgres insert the first rows while Python makes the next ones.
    It must not raise: asyncpg aborts the COPY then, and cancels it with a request on a side
    connection. Check the input before.

    Postgres refuses COPY FROM into a table under row-level security, so this one statement
    runs as the owner; every row's project and knowledge base are the caller's `kb`, never
    taken from the request, and its documents were resolved in the caller's scope.
    """
    embedded_at = datetime.now(UTC)
    project, knowledge_base = kb.project_id, kb.id
    written: list[ChunkRow] = []

    def records(ts_config: int) -> Iterator[tuple[Any, ...]]:
        for row in rows:
            written.append(row)
            yield (
                *row.record(),
                project,
                knowledge_base,
                ts_config,
                None if row.embedding is None else embedded_at,
            )

    async with elevated(session), _copy_codecs(session) as driver:
        ts_config = await driver.fetchval(
            "SELECT CAST(CAST($1 AS text) AS regconfig)::oid", kb.text_search_language
        )
        await driver.copy_records_to_table(
            "chunks",
            records=records(ts_config),
            columns=[*STAGE_COLUMNS, "project_id", "knowledge_base_id", "ts_config", "embedded_at"],
        )
    return written


async def upsert_rows(
    session: AsyncSession, kb: KnowledgeBase, rows: Sequence[ChunkRow]
) -> set[uuid.UUID]:
    """COPY the rows into a staging table, then upsert them; returns the documents that held
    the existing ones before.

    Ids are the knowledge base's own (the key is the knowledge base and the id), so a row can
    only ever overwrite a chunk of this knowledge base.
    """
    async with _copy_codecs(session) as driver:
        await driver.execute(
            "CREATE TEMP TABLE IF NOT EXISTS chunk_rows_stage ("
            "id uuid, document_id uuid, chunk_index int, text text, text_sha256 text, "
            "node_path text[], depth int, leaf_node_id text, section_titles text[], "
            "doc_title text, page_start int, page_end int, start_offset int, end_offset int, "
            "metadata jsonb, own_metadata boolean, embedding public.vector, "
            "embedding_computed boolean, spans jsonb) "
            "ON COMMIT DELETE ROWS"
        )
        await driver.execute("TRUNCATE chunk_rows_stage")
        await driver.copy_records_to_table(
            "chunk_rows_stage", records=[row.record() for row in rows], columns=list(STAGE_COLUMNS)
        )
    # A row may move its chunk to another document, whose old one must then be recounted.
    # Locked until the transaction ends, so a concurrent move cannot change the owner between
    # this read and the upsert (it waits, and this read sees its result).
    previous = await session.scalars(
        text(
            "SELECT c.document_id FROM chunks c JOIN chunk_rows_stage s ON s.id = c.id "
            "WHERE c.knowledge_base_id = :kb AND c.project_id = :project FOR UPDATE OF c"
        ),
        {"kb": kb.id, "project": kb.project_id},
    )
    previous_documents = set(previous.all())
    await session.execute(
        text(
            "INSERT INTO chunks (id, project_id, knowledge_base_id, document_id, chunk_index, "
            "text, text_sha256, node_path, depth, leaf_node_id, section_titles, doc_title, "
            "page_start, page_end, start_offset, end_offset, metadata, own_metadata, embedding, "
            "embedding_computed, spans, embedded_at, ts_config) "
            "SELECT id, :project, :kb, document_id, chunk_index, text, text_sha256, node_path, "
            "depth, leaf_node_id, section_titles, doc_title, page_start, page_end, start_offset, "
            "end_offset, metadata, own_metadata, embedding, embedding_computed, spans, "
            "CASE WHEN embedding IS NULL THEN NULL ELSE now() END, "
            "CAST(:ts_config AS regconfig) FROM chunk_rows_stage "
            "ON CONFLICT (id, knowledge_base_id, project_id) DO UPDATE SET "
            "document_id = EXCLUDED.document_id, "
            "chunk_index = EXCLUDED.chunk_index, text = EXCLUDED.text, "
            "text_sha256 = EXCLUDED.text_sha256, node_path = EXCLUDED.node_path, "
            "depth = EXCLUDED.depth, leaf_node_id = EXCLUDED.leaf_node_id, "
            "section_titles = EXCLUDED.section_titles, doc_title = EXCLUDED.doc_title, "
            "page_start = EXCLUDED.page_start, page_end = EXCLUDED.page_end, "
            "start_offset = EXCLUDED.start_offset, end_offset = EXCLUDED.end_offset, "
            "metadata = EXCLUDED.metadata, own_metadata = EXCLUDED.own_metadata, "
            "embedding = EXCLUDED.embedding, embedding_computed = EXCLUDED.embedding_computed, "
            "spans = EXCLUDED.spans, "
            "embedded_at = EXCLUDED.embedded_at, updated_at = now()"
        ),
        {"project": kb.project_id, "kb": kb.id, "ts_config": kb.text_search_language},
    )
    return previous_documents


@asynccontextmanager
async def _copy_codecs(session: AsyncSession) -> AsyncIterator[asyncpg.Connection]:
    """The session's asyncpg connection, set up for a binary COPY while the block runs.

    Vectors travel as pgvector's binary float32 (numpy packs a vector in one call; asyncpg
    would encode a real[] float by float), text search configurations as their oid. The
    codecs are the COPY's only: SQLAlchemy's types expect the text forms on the same pooled
    connection.
    """
    driver = await session_driver(session)
    await driver.set_type_codec(
        "vector",
        schema="public",
        encoder=vector_binary,
        decoder=Vector.from_binary,
        format="binary",
    )
    await driver.set_type_codec(
        "regconfig",
        schema="pg_catalog",
        encoder=OID.pack,
        decoder=lambda data: OID.unpack(data)[0],
        format="binary",
    )
    try:
        yield driver
    except BaseException:
        # asyncpg looks a type up with a query to reset its codec, which the aborted
        # transaction would refuse, and that error would replace this one. The connection
        # keeps codecs SQLAlchemy's types do not expect, so the pool discards it instead.
        await (await session.connection()).invalidate()
        raise
    await driver.reset_type_codec("regconfig", schema="pg_catalog")
    await driver.reset_type_codec("vector", schema="public")
    # The resets cleared every type the connection had learned; the next search on it would
    # pay the introspection otherwise.
    await learn_types(driver)
