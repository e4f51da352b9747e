"""The knowledge graph behind the answers flow's graph seam (app/answers/retrieval.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from app.answers.retrieval import GraphContext
from app.chunks.embedding import EmbedderFactory
from app.graph.service import graph_context_for
from app.models import KnowledgeBase


@dataclass(frozen=True, slots=True)
class GraphAnswers:
    """Definitions (`name: summary`) and facts of the knowledge bases that have a graph, as
    the caller may see them: the graph filters by the same principals as search."""

    embedders: EmbedderFactory

    async def context(
        self,
        session: AsyncSession,
        *,
        knowledge_bases: Sequence[KnowledgeBase],
        question: str,
        # The seam's arguments: the graph finds its own entities in the question and filters
        # by principals (its tables are not `documents`, so the SQL clause does not apply).
        entities: Sequence[str],  # noqa: ARG002
        visible: ColumnElement[bool] | None,  # noqa: ARG002
        principals: frozenset[str] | None,
        quick: bool,
    ) -> GraphContext:
        found = GraphContext()
        for kb in knowledge_bases:
            answer = await graph_context_for(
                session,
                kb,
                principals,
                question,
                embedders=self.embedders,
                mode="quick" if quick else "standard",
            )
            if answer is None:
                continue
            names = {node.id: node.name for node in answer.result.nodes}
            found.definitions += [
                f"{node.name}: {node.summary}" if node.summary else node.name
                for node in answer.result.nodes
            ]
            found.facts += [
                f"{names.get(edge.source_id, '?')} {edge.type} "
                f"{names.get(edge.target_id, '?')}, {edge.fact}"
                for edge in answer.result.edges
            ]
        return found
