"""The ids ingestion gives chunks: stable per (document, position), and never one a client's
chunk holds already.

Clients choose chunk ids too (`PUT .../chunks/{chunk_id}`, `chunks/bulk`), unique within the
knowledge base, and may choose exactly the id ingestion derives (it is a UUIDv5 of public
values), or move a generated chunk to another document. The store step then picks the next
candidate for that position instead of failing the document on the primary key at every retry.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from app.chunks import repository as chunks_repository
from app.chunks.copy_rows import ChunkRow
from app.models import KnowledgeBase

CHUNK_ID_NAMESPACE = uuid.UUID("6f0c3f0e-2b7a-4f57-9a59-4c3e0b7d9a11")
# Derived candidates tried per position before a random one: an id taken by chance or by a
# move gets a stable stand-in, and one who took every derived candidate on purpose (they are
# computable) still cannot block the document.
DERIVED_CANDIDATES = 3


def chunk_id(document_id: uuid.UUID, index: int, candidate: int = 0) -> uuid.UUID:
    """Stable per (document, position): a re-run overwrites instead of duplicating.
    `candidate` > 0: the stand-ins for when the first is held by another chunk."""
    suffix = f":{candidate}" if candidate else ""
    return uuid.uuid5(CHUNK_ID_NAMESPACE, f"{document_id}:{index}{suffix}")


async def with_free_ids(
    session: AsyncSession, kb: KnowledgeBase, rows: Sequence[ChunkRow]
) -> list[ChunkRow]:
    """The rows, each under an id no chunk of the knowledge base holds now (the documents' own
    chunks deleted before). One indexed lookup when nothing collides, the usual case."""
    chosen = list(rows)
    pending = list(range(len(chosen)))
    for candidate in range(1, DERIVED_CANDIDATES + 2):
        held = await chunks_repository.held_in(session, kb, [chosen[i].id for i in pending])
        pending = [i for i in pending if chosen[i].id in held]
        if not pending:
            break
        for i in pending:
            row = chosen[i]
            new_id = (
                chunk_id(row.document_id, row.chunk_index, candidate)
                if candidate <= DERIVED_CANDIDATES
                else uuid.uuid4()
            )
            chosen[i] = dataclasses.replace(row, id=new_id)
    # A random id held as well, or an id taken since the lookup: the insert fails on the
    # primary key and the job is retried, to look again.
    return chosen
