"""One HNSW index per knowledge base: a partial index on a cast of the shared vector column,
on the partition of `chunks` that holds the knowledge base (app/chunks/partitions.py).

Why partial indexes (docs/vector-storage.md): each knowledge base gets its own HNSW graph, so
its recall does not depend on how many vectors the others hold, while all chunks stay in one
table with one set of foreign keys.
"""

from __future__ import annotations

import uuid

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.chunks.partitions import partition_of
from app.db.tenancy import elevated

# pgvector's HNSW limit for `vector` is 2,000 dimensions; `halfvec` indexes up to 4,000.
MAX_VECTOR_INDEX_DIMS = 2000
MAX_HALFVEC_INDEX_DIMS = 4000
# maintenance_work_mem of one build. pgvector builds the graph in it; once the graph outgrows
# it, every remaining vector is inserted into the on-disk index one by one (about 2 ms each
# here: hours at 1M chunks). The floor is what every build had before sizing; the ceiling
# bounds what one build may take from the server (docs/vector-storage.md).
BUILD_MEMORY_MIN_MB = 512
BUILD_MEMORY_MAX_MB = 4096


def index_name(knowledge_base_id: uuid.UUID) -> str:
    return f"ix_chunks_embedding_{knowledge_base_id.hex}"


def vector_cast(dimensions: int) -> str:
    """The SQL cast the index is built on; queries must order by the same expression."""
    kind = "vector" if dimensions <= MAX_VECTOR_INDEX_DIMS else "halfvec"
    return f"{kind}({int(dimensions)})"


def opclass(dimensions: int) -> str:
    return "vector_cosine_ops" if dimensions <= MAX_VECTOR_INDEX_DIMS else "halfvec_cosine_ops"


def build_memory_mb(vectors: int, *, dimensions: int, m: int) -> int:
    """maintenance_work_mem (MB) that holds the HNSW graph of `vectors` vectors, within bounds.

    Per element pgvector keeps the indexed value, 2m level-0 neighbour slots of 16 bytes (upper
    levels add about 1/m of that) and about 250 bytes of element header and heap TIDs; a
    quarter more covers the allocator. 384-d, m 16: about 2.9 KB, 2.8 GB for 1M chunks."""
    value = (4 if dimensions <= MAX_VECTOR_INDEX_DIMS else 2) * dimensions + 8
    element = value + 2 * m * 16 + 256
    needed = vectors * element * 5 // 4 // 2**20 + 1
    return max(BUILD_MEMORY_MIN_MB, min(BUILD_MEMORY_MAX_MB, needed))


def create_index_sql(
    knowledge_base_id: uuid.UUID,
    *,
    partition: str,
    dimensions: int,
    m: int,
    ef_construction: int,
    concurrently: bool,
) -> str:
    """The DDL of a knowledge base's HNSW index on `partition` (`partition_of`; identifiers
    derive from a UUID and the catalog, not input)."""
    return (
        f"CREATE INDEX {'CONCURRENTLY ' if concurrently else ''}{index_name(knowledge_base_id)} "
        f"ON {partition} USING hnsw "
        f"((embedding::{vector_cast(dimensions)}) {opclass(dimensions)}) "
        f"WITH (m = {int(m)}, ef_construction = {int(ef_construction)}) "
        f"WHERE knowledge_base_id = '{knowledge_base_id}'"
    )


def has_index(dimensions: int) -> bool:
    """Above 4,000 dimensions search is exact: pgvector indexes no wider vectors."""
    return dimensions <= MAX_HALFVEC_INDEX_DIMS


async def create_vector_index(
    session: AsyncSession,
    *,
    knowledge_base_id: uuid.UUID,
    dimensions: int,
    m: int,
    ef_construction: int,
) -> None:
    """Create the knowledge base's HNSW index inside the session's transaction."""
    if not has_index(dimensions):
        return  # exact search only; documented limit
    # DDL needs the table's owner; a request's transaction otherwise runs as the app role.
    partition = await partition_of(session, knowledge_base_id)
    async with elevated(session):
        await session.execute(
            text(
                create_index_sql(
                    knowledge_base_id,
                    partition=partition,
                    dimensions=dimensions,
                    m=m,
                    ef_construction=ef_construction,
                    concurrently=False,
                )
            )
        )


async def drop_vector_index(session: AsyncSession, *, knowledge_base_id: uuid.UUID) -> None:
    async with elevated(session):
        await session.execute(text(f"DROP INDEX IF EXISTS public.{index_name(knowledge_base_id)}"))
