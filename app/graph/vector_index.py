"""HNSW indexes on a knowledge base's entity name and relation fact vectors.

As for chunks (app/chunks/vector_index.py), one partial index per knowledge base on a cast of
the shared, untyped `vector` column: HNSW needs a fixed dimension, knowledge bases differ in
theirs, and a per-knowledge-base graph keeps recall independent of the others' graphs. Only
knowledge bases with the graph on have them: they are built after the commit that turns it on
(or creates the knowledge base with it), concurrently, and dropped when it is turned off or the
knowledge base is deleted; the start-up and hourly sweep (app/chunks/index_upkeep.py) builds
what is missing and drops what is left over. Without its index a knowledge base's graph vector
search is exact: the same rows, slower.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.chunks.deferred_index import autocommit, index_lock
from app.chunks.vector_index import BUILD_MEMORY_MIN_MB, has_index, opclass, vector_cast
from app.db.engine import Database
from app.graph.settings import graph_of
from app.models import KnowledgeBase

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GraphVectors:
    table: str
    column: str
    prefix: str


ENTITY_NAMES = GraphVectors("graph_entities", "name_embedding", "ix_graph_entities_embedding_")
RELATION_FACTS = GraphVectors("graph_relations", "fact_embedding", "ix_graph_relations_embedding_")
INDEXED = (ENTITY_NAMES, RELATION_FACTS)
# The chunks' index of the same knowledge base takes the advisory lock on its id; these take
# one derived from it, so a graph build never waits for a chunks build, nor blocks it.
_LOCK_SALT = 0x6772_6170_6800  # "graph"

VALID_GRAPH_INDEXES = text(
    "SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
    "WHERE i.indrelid IN ('public.graph_entities'::regclass, 'public.graph_relations'::regclass) "
    "AND (starts_with(c.relname, :entities) OR starts_with(c.relname, :relations))"
)
INDEX_VALID = text("SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass(:name)")


def index_name(vectors: GraphVectors, knowledge_base_id: uuid.UUID) -> str:
    return f"{vectors.prefix}{knowledge_base_id.hex}"


def knowledge_base_of(index: str) -> uuid.UUID | None:
    for vectors in INDEXED:
        if index.startswith(vectors.prefix):
            try:
                return uuid.UUID(hex=index.removeprefix(vectors.prefix))
            except ValueError:
                return None
    return None


def wants_index(kb: KnowledgeBase) -> bool:
    return graph_of(kb.graph).enabled and has_index(kb.embedding_dimensions)


def create_index_sql(vectors: GraphVectors, kb: KnowledgeBase, *, concurrently: bool = True) -> str:
    """The DDL (identifiers and literals derive from a UUID and integers, not input)."""
    dimensions = kb.embedding_dimensions
    return (
        f"CREATE INDEX {'CONCURRENTLY ' if concurrently else ''}{index_name(vectors, kb.id)} "
        f"ON public.{vectors.table} "
        f"USING hnsw (({vectors.column}::{vector_cast(dimensions)}) {opclass(dimensions)}) "
        f"WITH (m = {int(kb.hnsw_m)}, ef_construction = {int(kb.hnsw_ef_construction)}) "
        f"WHERE knowledge_base_id = '{kb.id}'"
    )


def _lock_id(knowledge_base_id: uuid.UUID) -> uuid.UUID:
    return uuid.UUID(int=knowledge_base_id.int ^ _LOCK_SALT)


async def build(database: Database, kb: KnowledgeBase) -> int:
    """Build the knowledge base's missing (or invalid: an interrupted concurrent build) graph
    indexes; how many. Raises DBAPIError when the build fails; 0 when another process holds
    the knowledge base's graph index lock (the sweep comes back)."""
    if not wants_index(kb):
        return 0
    built = 0
    async with autocommit(database) as connection, index_lock(connection, _lock_id(kb.id)) as ok:
        if not ok:
            return 0
        await connection.execute(text(f"SET maintenance_work_mem = '{BUILD_MEMORY_MIN_MB}MB'"))
        try:
            for vectors in INDEXED:
                name = f"public.{index_name(vectors, kb.id)}"
                valid = await connection.scalar(INDEX_VALID, {"name": name})
                if valid:
                    continue
                if valid is not None:
                    await connection.execute(text(f"DROP INDEX CONCURRENTLY IF EXISTS {name}"))
                await connection.execute(text(create_index_sql(vectors, kb)))
                built += 1
        finally:
            await connection.execute(text("RESET maintenance_work_mem"))
    return built


async def drop(database: Database, knowledge_base_id: uuid.UUID) -> int:
    """Drop the knowledge base's graph indexes (its graph was turned off, or it is gone)."""
    dropped = 0
    async with (
        autocommit(database) as connection,
        index_lock(connection, _lock_id(knowledge_base_id)) as ok,
    ):
        if not ok:
            return 0
        for vectors in INDEXED:
            name = f"public.{index_name(vectors, knowledge_base_id)}"
            if await connection.scalar(INDEX_VALID, {"name": name}) is not None:
                await connection.execute(text(f"DROP INDEX CONCURRENTLY IF EXISTS {name}"))
                dropped += 1
    return dropped


async def keep_up(database: Database, kb: KnowledgeBase) -> None:
    """After a commit that created the knowledge base or changed its graph setting: build or
    drop its graph indexes; a failure is left for the sweep, never the request's."""
    try:
        if wants_index(kb):
            await build(database, kb)
        else:
            await drop(database, kb.id)
    except DBAPIError as exc:
        logger.warning("graph indexes of knowledge base %s left for the sweep: %s", kb.id, exc)


async def forget(database: Database, knowledge_base_id: uuid.UUID) -> None:
    """After a knowledge base's deletion: drop its graph indexes, or leave them for the sweep
    (an orphaned index holds no live row and matches no query)."""
    try:
        await drop(database, knowledge_base_id)
    except DBAPIError as exc:
        logger.warning("graph indexes of deleted %s left for the sweep: %s", knowledge_base_id, exc)


async def sweep(database: Database, knowledge_bases: list[KnowledgeBase]) -> tuple[int, int]:
    """Build the missing graph indexes of knowledge bases with the graph on, drop those of
    knowledge bases that are gone or have it off; how many of each."""
    async with database.transaction() as session:
        found = (
            await session.execute(
                VALID_GRAPH_INDEXES,
                {"entities": ENTITY_NAMES.prefix, "relations": RELATION_FACTS.prefix},
            )
        ).all()
    valid: dict[uuid.UUID, int] = {}
    present: set[uuid.UUID] = set()
    for name, ok in found:
        if (kb_id := knowledge_base_of(name)) is not None:
            present.add(kb_id)
            valid[kb_id] = valid.get(kb_id, 0) + bool(ok)
    wanted = {kb.id: kb for kb in knowledge_bases if wants_index(kb)}
    dropped = 0
    for kb_id in present - set(wanted):
        dropped += await drop(database, kb_id)
    built = 0
    for kb_id, kb in wanted.items():
        if valid.get(kb_id, 0) < len(INDEXED):
            try:
                built += await build(database, kb)
            except DBAPIError as exc:
                logger.warning("graph indexes of %s left for later: %s", kb_id, exc)
    return built, dropped
