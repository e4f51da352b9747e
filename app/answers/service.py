"""Rules of answers around the flow: who may ask where, what goes on record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement

from app.answers.flow import FlowDependencies, llm_required
from app.answers.retrieval import RetrievalScope, search_options
from app.answers.schemas import AnswerOptions, AnswerResponse
from app.auth.callers import Caller
from app.db.engine import Database
from app.search import service as search

# Question characters kept on the audit record.
MAX_AUDIT_QUESTION_CHARS = 2000


async def prepare(
    database: Database,
    caller: Caller,
    options: AnswerOptions,
    *,
    refs: Sequence[str],
    visible: ColumnElement[bool] | None,
    deps: FlowDependencies,
) -> RetrievalScope:
    """Everything that must fail as a plain problem response before a stream starts: unknown
    knowledge bases (404), mixed models or a bad filter (422), an LLM asked for and absent
    (503). Knowledge bases resolve in the caller's scope, as for search."""
    llm_required(options, deps.llm)
    probe = options.query or "?"
    search.check_options(search_options(options, probe), reranker=deps.reranker)
    async with database.transaction(
        project_id=caller.project.id, knowledge_bases=caller.knowledge_bases, read_only=True
    ) as session:
        kbs = await search.resolve_knowledge_bases(session, project_id=caller.project.id, refs=refs)
    return RetrievalScope(
        project_id=caller.project.id,
        allowed_knowledge_bases=caller.knowledge_bases,
        knowledge_bases=tuple(kbs),
        visible=visible,
        principals=caller.principals,
    )


def audit_details(
    options: AnswerOptions, response: AnswerResponse, *, with_text: bool
) -> dict[str, Any]:
    """The question, the sources given to the generator and the generator; the answer text
    only when configured (ARBOR_ANSWER_AUDIT_TEXT), as it may repeat document text."""
    details: dict[str, Any] = {
        "question": response.analysis.question[:MAX_AUDIT_QUESTION_CHARS],
        "mode": options.mode.value,
        "generator": response.generator,
        "model": response.model,
        "sources": [
            {"n": s.n, "chunk_ids": [str(c) for c in s.chunk_ids], "doc_id": str(s.doc_id)}
            for s in response.sources
        ],
        "cited": [c.n for c in response.citations],
        "warnings": response.warnings,
    }
    if with_text:
        details["answer"] = response.answer
    return details
