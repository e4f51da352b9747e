"""`chunks` is partitioned by hash of the knowledge base (migration 0030): which partition holds
a knowledge base's rows, so that its HNSW index is built there and nowhere else.

A partial index created on the partitioned table would be created on every partition, sixteen
indexes of which fifteen hold nothing but are still read by the planner. The partition is read
from the catalog (its bounds), not computed here: Postgres's hash of a uuid is its own.
"""

from __future__ import annotations

import uuid

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

PARTITION_OF = text(
    "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid, "
    "LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid), "
    "'modulus (\\d+), remainder (\\d+)') AS bound "
    "WHERE i.inhparent = 'public.chunks'::regclass AND satisfies_hash_partition("
    "'public.chunks'::regclass, bound[1]::int, bound[2]::int, CAST(:kb AS uuid))"
)


async def partition_of(
    connection: AsyncConnection | AsyncSession, knowledge_base_id: uuid.UUID
) -> str:
    """The schema-qualified partition that holds (or will hold) the knowledge base's chunks."""
    name = await connection.scalar(PARTITION_OF, {"kb": knowledge_base_id})
    if name is None:
        raise LookupError(f"no partition of chunks takes knowledge base {knowledge_base_id}")
    return f"public.{name}"
