"""Rules of evaluations: accept a query set, run it as a job through search, score it.

The job searches with the rights of the caller who posted the evaluation (its document
access list, kept on the row) through `app.search.service.search`, the path every search
takes; each query in a short transaction of its own, one snapshot each, as the search route.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections import defaultdict
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.acl import visible_documents_clause
from app.auth.callers import Caller
from app.chunks.embedding import EmbedderFactory
from app.config import Settings
from app.db.engine import Database
from app.evaluations import measures, repository
from app.evaluations.schemas import (
    EVAL_TOP_K,
    ConfigurationResult,
    EvaluationConfiguration,
    EvaluationCreate,
    EvaluationRead,
    EvaluationResults,
    EvaluationSummary,
    Measures,
    QueryResult,
)
from app.jobs import repository as jobs_repository
from app.jobs.worker import record_failure
from app.models import Evaluation, Job, KnowledgeBase
from app.search import service as search
from app.search.rerank import reranker_from_env
from app.search.schemas import SearchRequest

logger = logging.getLogger(__name__)

JOB_KIND = "evaluation"
RETRY_DELAY_S = 10.0


async def create(
    session: AsyncSession,
    kb: KnowledgeBase,
    data: EvaluationCreate,
    *,
    caller: Caller,
    settings: Settings,
) -> Evaluation:
    """Store the evaluation and queue its job in one transaction."""
    evaluation_id = uuid.uuid4()
    job = jobs_repository.new_job(
        project_id=kb.project_id,
        knowledge_base_id=kb.id,
        document_id=None,
        kind=JOB_KIND,
        payload={"evaluation_id": str(evaluation_id)},
        max_attempts=settings.job_max_attempts,
    )
    session.add(job)
    evaluation = Evaluation(
        id=evaluation_id,
        project_id=kb.project_id,
        knowledge_base_id=kb.id,
        job_id=job.id,
        name=data.name,
        status="queued",
        access=None if caller.principals is None else {"principals": sorted(caller.principals)},
        request={
            "queries": [{"_id": q.id, "text": q.text} for q in data.queries],
            "qrels": [j.model_dump() for j in data.qrels],
            "configurations": [{"name": c.name, **c.options()} for c in data.configurations],
        },
    )
    session.add(evaluation)
    await session.flush()
    await session.refresh(evaluation)
    return evaluation


def to_read(evaluation: Evaluation) -> EvaluationRead:
    request = evaluation.request
    return EvaluationRead(
        id=evaluation.id,
        knowledge_base_id=evaluation.knowledge_base_id,
        job_id=evaluation.job_id,
        name=evaluation.name,
        status=evaluation.status,
        queries=len(request["queries"]),
        judgments=len(request["qrels"]),
        configurations=[c["name"] for c in request["configurations"]],
        results=EvaluationResults.model_validate(evaluation.results)
        if evaluation.results is not None
        else None,
        error=evaluation.error,
        created_at=evaluation.created_at,
        finished_at=evaluation.finished_at,
    )


def to_summary(evaluation: Evaluation) -> EvaluationSummary:
    results = evaluation.results or {}
    return EvaluationSummary(
        id=evaluation.id,
        name=evaluation.name,
        status=evaluation.status,
        created_at=evaluation.created_at,
        finished_at=evaluation.finished_at,
        measures={
            c["name"]: Measures.model_validate(c["measures"])
            for c in results.get("configurations", [])
        },
    )


def score(
    rankings: dict[str, list[str]], judged: dict[str, dict[str, int]]
) -> tuple[Measures, list[tuple[str, dict[str, float]]]]:
    """Per query and mean measures; `rankings` maps each judged query to its documents."""
    rows = [
        (query_id, measures.measure(rankings.get(query_id, []), judged[query_id]))
        for query_id in judged
    ]
    count = max(len(rows), 1)
    mean = {name: sum(values[name] for _, values in rows) / count for name in measures.MEASURES}
    return Measures(**mean), rows


@dataclass
class Evaluator:
    """The `evaluation` job."""

    database: Database
    settings: Settings
    embedders: EmbedderFactory

    async def handle(self, job: Job) -> None:
        evaluation_id = uuid.UUID(str(job.payload["evaluation_id"]))
        try:
            await self._set(evaluation_id, status="running")
            results = await self._run(job, evaluation_id)
            if results is None:
                async with self.database.transaction() as session:
                    await jobs_repository.finish(session, job.id, status="cancelled")
                return
            async with self.database.transaction() as session:
                await self._set(
                    evaluation_id,
                    session=session,
                    status="succeeded",
                    results=results,
                    error=None,
                    finished_at=func.now(),
                )
                await jobs_repository.finish(session, job.id, status="succeeded")
        except Exception as exc:
            logger.exception("evaluation %s failed (attempt %d)", evaluation_id, job.attempts)
            await record_failure(self.database, job, exc, delay_s=RETRY_DELAY_S * job.attempts)
            if job.attempts >= job.max_attempts:
                await self._set(
                    evaluation_id,
                    status="failed",
                    finished_at=func.now(),
                    error=f"internal error ({type(exc).__name__})",
                )

    async def _set(
        self, evaluation_id: uuid.UUID, *, session: AsyncSession | None = None, **values: Any
    ) -> None:
        statement = (
            update(Evaluation)
            .where(Evaluation.id == evaluation_id)
            .values(updated_at=func.now(), **values)
        )
        if session is not None:
            await session.execute(statement)
            return
        async with self.database.transaction() as own:
            await own.execute(statement)

    async def _run(self, job: Job, evaluation_id: uuid.UUID) -> dict[str, Any] | None:
        async with self.database.transaction() as session:
            evaluation = await session.get(Evaluation, evaluation_id)
            kb = await session.get(KnowledgeBase, job.knowledge_base_id)
        if evaluation is None or kb is None:
            return None
        access = evaluation.access
        visible = visible_documents_clause(
            None if access is None else frozenset(access["principals"])
        )
        request = evaluation.request
        judged: dict[str, dict[str, str | int]] = defaultdict(dict)
        for row in request["qrels"]:
            judged[row["query_id"]][row["doc_id"]] = row["score"]
        queries = [q for q in request["queries"] if q["_id"] in judged]
        refs = [ref for grades in judged.values() for ref in grades]
        async with self._scoped(kb) as session:
            resolved = await repository.resolve_documents(session, kb.id, refs, visible=visible)
        # Judgments keyed by document id; a reference to nothing readable keeps a key of its
        # own, so it stays relevant (and unfound), as trec_eval treats an unretrieved document.
        by_doc: dict[str, dict[str, int]] = {
            query_id: {
                str(resolved.get(ref, f"unresolved:{ref}")): int(grade)
                for ref, grade in grades.items()
            }
            for query_id, grades in judged.items()
            if any(q["_id"] == query_id for q in queries)
        }
        reranker = reranker_from_env()
        configurations = []
        for config in request["configurations"]:
            options = EvaluationConfiguration.model_validate(config)
            rankings: dict[str, list[str]] = {}
            elapsed = 0.0
            for query in queries:
                body = {
                    **options.model_dump(exclude={"name"}, exclude_unset=True, by_alias=True),
                    "query": query["text"],
                    "top_k": EVAL_TOP_K,
                    "offset": 0,
                }
                started = time.perf_counter()
                async with self._scoped(kb, one_snapshot=True) as session:
                    found = await search.search(
                        session,
                        [kb],
                        SearchRequest.model_validate(body),
                        embedders=self.embedders,
                        reranker=reranker,
                        visible=visible,
                    )
                elapsed += time.perf_counter() - started
                rankings[query["_id"]] = list(dict.fromkeys(str(h.doc_id) for h in found.hits))
            mean, rows = score(rankings, by_doc)
            shown = await self._names(kb, [d for r in rankings.values() for d in r[:10]])
            configurations.append(
                ConfigurationResult(
                    name=options.name,
                    options={k: v for k, v in config.items() if k != "name"},
                    measures=mean,
                    mean_latency_ms=elapsed * 1000 / max(len(queries), 1),
                    queries=[
                        QueryResult(
                            query_id=query_id,
                            relevant=sum(
                                g >= measures.RELEVANCE_LEVEL for g in by_doc[query_id].values()
                            ),
                            retrieved=[shown.get(d, d) for d in rankings.get(query_id, [])[:10]],
                            **values,
                        )
                        for query_id, values in rows
                    ],
                )
            )
        return EvaluationResults(
            queries_evaluated=len(queries),
            queries_without_judgments=[
                q["_id"] for q in request["queries"] if q["_id"] not in judged
            ],
            unresolved_documents=len(set(refs) - resolved.keys()),
            configurations=configurations,
        ).model_dump(mode="json")

    def _scoped(
        self, kb: KnowledgeBase, *, one_snapshot: bool = False
    ) -> AbstractAsyncContextManager[AsyncSession]:
        """A transaction that sees what the evaluation's knowledge base holds, no more."""
        return self.database.transaction(
            project_id=kb.project_id, knowledge_bases=[kb.id], one_snapshot=one_snapshot
        )

    async def _names(self, kb: KnowledgeBase, doc_ids: list[str]) -> dict[str, str]:
        if not doc_ids:
            return {}
        async with self._scoped(kb) as session:
            names = await repository.external_ids(session, [uuid.UUID(d) for d in doc_ids])
        return {str(doc_id): name for doc_id, name in names.items()}
