"""A synthetic graph for retrieval tests: a knowledge base, one document, one chunk."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI

from app.graph import repository
from app.graph.repository import Visibility

VectorOf = Callable[[], Awaitable[list[float] | None]]


@dataclass
class Graph:
    app: FastAPI
    kb: uuid.UUID
    project: uuid.UUID
    document: uuid.UUID
    chunk: uuid.UUID

    @property
    def vis(self) -> Visibility:
        return Visibility(self.kb, None)

    async def write(
        self,
        entities: list[tuple[str, str, list[float] | None]],
        relations: list[tuple[str, str, str]] = (),  # type: ignore[assignment]
    ) -> dict[str, uuid.UUID]:
        """Entities (name, description, vector) and relations (source, target, fact)."""
        async with self.app.state.database.transaction() as session:
            ids = await repository.upsert_entities(
                session,
                project_id=self.project,
                knowledge_base_id=self.kb,
                entities=[(name.lower(), name, "CONCEPT", vec) for name, _d, vec in entities],
            )
            rel_ids = await repository.upsert_relations(
                session,
                project_id=self.project,
                knowledge_base_id=self.kb,
                relations=[
                    (ids[s.lower()], ids[t.lower()], "related_to", fact, None)
                    for s, t, fact in relations
                ],
            )
            await repository.write_mentions(
                session,
                project_id=self.project,
                knowledge_base_id=self.kb,
                document_id=self.document,
                extraction=uuid.uuid4(),
                entity_mentions=[(ids[n.lower()], self.chunk, n, d) for n, d, _v in entities],
                relation_mentions=[(r, self.chunk) for r in rel_ids.values()],
            )
        return {name: ids[name.lower()] for name, _d, _v in entities}

    async def session(self) -> Any:
        return self.app.state.database.transaction()


def fixed(vector: list[float] | None) -> VectorOf:
    calls: list[int] = []

    async def vector_of() -> list[float] | None:
        calls.append(1)
        return vector

    vector_of.calls = calls  # type: ignore[attr-defined]
    return vector_of
