"""Knowledge bases' vector indexes built and dropped without locking anyone out.

Each knowledge base has a partial HNSW index on its partition of `chunks`, which it shares with
other knowledge bases (app/chunks/vector_index.py). Plain DDL in the request's transaction
locked that table for every project until the commit:

- DROP INDEX, when a knowledge base was deleted: an ACCESS EXCLUSIVE lock, so every search and
  write waited for the cascade (100,000 chunks: 85 ms with the table cached, 1.4-5.7 s
  right after a server start);
- CREATE INDEX, when one was created: a SHARE lock, so every write waited for a scan of the
  whole table (51-178 ms at 100,000 chunks, about linear in the table's size).

Both now run after the commit, CONCURRENTLY: a creation builds its (empty) index before it
answers, a deletion drops its index after it answered. A sweep at start-up and every hour
builds what a process that died in between did not, and drops the indexes of knowledge bases
that are gone. Meanwhile a knowledge base without its index searches exactly (the same
results), and an orphaned index holds no live row and matches no query.
"""

from __future__ import annotations

import logging
import uuid

from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError

from app.chunks.deferred_index import JOB_KIND, IndexBusy, build, try_drop
from app.chunks.vector_index import has_index, index_name
from app.db.engine import Database
from app.graph import vector_index as graph_vector_index
from app.models import Job, KnowledgeBase

logger = logging.getLogger(__name__)

PREFIX = index_name(uuid.UUID(int=0)).removesuffix(uuid.UUID(int=0).hex)
VALID_VECTOR_INDEXES = text(
    "SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
    "WHERE i.indrelid IN (SELECT inhrelid FROM pg_inherits "
    "WHERE inhparent = 'public.chunks'::regclass) AND starts_with(c.relname, :prefix)"
)


async def build_index_of(database: Database, kb: KnowledgeBase) -> bool:
    """Build a new knowledge base's index (CREATE INDEX CONCURRENTLY); False when it is left
    for the sweep (the table stayed busy, a drop or build of it holds it)."""
    if not has_index(kb.embedding_dimensions):
        return False
    try:
        await build(database, kb)
    except (IndexBusy, DBAPIError) as exc:
        logger.warning("index of knowledge base %s left for the sweep: %s", kb.id, exc)
        return False
    return True


async def drop_index_of(database: Database, knowledge_base_id: uuid.UUID) -> bool:
    """Drop a deleted knowledge base's index; False when it is left for the sweep."""
    kept = await try_drop(database, knowledge_base_id)
    if kept is not None:
        logger.warning(
            "index of deleted knowledge base %s left for later: %s", knowledge_base_id, kept
        )
    return kept is None


async def sweep(database: Database) -> tuple[int, int]:
    """Build the missing indexes of knowledge bases whose index is not deliberately away (a
    `vector_index` job queued or running: a bulk load dropped it), and drop those of knowledge
    bases that are gone; how many of each."""
    async with database.transaction() as session:
        found = (await session.execute(VALID_VECTOR_INDEXES, {"prefix": PREFIX})).all()
        valid = {kb_id for name, ok in found if ok and (kb_id := _knowledge_base_of(name))}
        indexed = {kb_id for name, _ in found if (kb_id := _knowledge_base_of(name))}
        knowledge_bases = list(await session.scalars(select(KnowledgeBase)))
        deferred = set(
            await session.scalars(
                select(Job.knowledge_base_id).where(
                    Job.kind == JOB_KIND, Job.status.in_(("queued", "running"))
                )
            )
        )
    existing = {kb.id for kb in knowledge_bases}
    dropped = 0
    for knowledge_base_id in indexed - existing:
        dropped += await drop_index_of(database, knowledge_base_id)
    built = 0
    for kb in knowledge_bases:
        if kb.id not in valid and kb.id not in deferred and has_index(kb.embedding_dimensions):
            built += await build_index_of(database, kb)
    graph_built, graph_dropped = await graph_vector_index.sweep(database, knowledge_bases)
    return built + graph_built, dropped + graph_dropped


def _knowledge_base_of(name: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(hex=name.removeprefix(PREFIX))
    except ValueError:
        return None  # not one of ours
