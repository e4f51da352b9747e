"""The public contract of evaluations: a judged query set, configurations, their results."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.kit.schemas import RequestModel
from app.kit.strings import StoredText
from app.search.schemas import SearchOptions

MAX_QUERIES = 5_000
MAX_JUDGMENTS = 200_000
MAX_CONFIGURATIONS = 10
# Each query's ranking is cut here: Recall@100 needs the first 100 documents.
EVAL_TOP_K = 100


class EvaluationQuery(RequestModel):
    """A BEIR query: `_id` and `text`."""

    model_config = ConfigDict(populate_by_name=True, extra="ignore")

    id: StoredText = Field(alias="_id", min_length=1, max_length=200)
    text: StoredText = Field(min_length=1, max_length=20_000)


class Judgment(RequestModel):
    """A BEIR qrels row: how relevant a document is to a query (>= 1: relevant)."""

    query_id: StoredText = Field(min_length=1, max_length=200)
    doc_id: StoredText = Field(
        min_length=1, max_length=1024, description="A document id or external id."
    )
    score: int = Field(ge=-1000, le=1000)


class EvaluationConfiguration(SearchOptions):
    """A named set of search options; each query of the set is searched with them.

    `query` and `vector` come from the query set (not allowed here); `top_k` and `offset` are
    set by the evaluation (100, 0)."""

    name: StoredText = Field(min_length=1, max_length=100)

    @model_validator(mode="after")
    def _something_to_search(self) -> EvaluationConfiguration:
        if self.query is not None or self.vector is not None:
            raise ValueError("`query` and `vector` come from the query set, not a configuration")
        return self

    def options(self) -> dict[str, Any]:
        """What the configuration sets, as given (for the results)."""
        return self.model_dump(mode="json", exclude_unset=True, exclude={"name"}, by_alias=True)


class EvaluationCreate(RequestModel):
    """A query set with judgments (BEIR layout) and the search configurations to compare."""

    name: StoredText | None = Field(default=None, max_length=200)
    queries: list[EvaluationQuery] = Field(min_length=1, max_length=MAX_QUERIES)
    qrels: list[Judgment] = Field(min_length=1, max_length=MAX_JUDGMENTS)
    configurations: list[EvaluationConfiguration] = Field(
        default_factory=lambda: [EvaluationConfiguration(name="default")],
        min_length=1,
        max_length=MAX_CONFIGURATIONS,
        description="Default: one configuration, `default`, with every search default.",
    )

    @model_validator(mode="after")
    def _distinct(self) -> EvaluationCreate:
        names = [c.name for c in self.configurations]
        if len(set(names)) != len(names):
            raise ValueError("configuration names must be distinct")
        ids = [q.id for q in self.queries]
        if len(set(ids)) != len(ids):
            raise ValueError("query `_id`s must be distinct")
        return self


class Measures(BaseModel):
    ndcg_at_10: float
    recall_at_10: float
    recall_at_100: float
    mrr_at_10: float


class QueryResult(Measures):
    query_id: str
    relevant: int = Field(description="Judged relevant documents (grade >= 1).")
    retrieved: list[str] = Field(
        description="The first 10 documents found, by external id where they have one."
    )


class ConfigurationResult(BaseModel):
    name: str
    options: dict[str, Any]
    measures: Measures = Field(description="Means over the evaluated queries.")
    mean_latency_ms: float
    queries: list[QueryResult]


class EvaluationResults(BaseModel):
    queries_evaluated: int = Field(
        description="Queries with at least one judgment; each counts in the means (0 when "
        "nothing relevant is found, as trec_eval -c)."
    )
    queries_without_judgments: list[str]
    unresolved_documents: int = Field(
        description="Judged documents that name no document the evaluation could read: "
        "counted as relevant and never found."
    )
    configurations: list[ConfigurationResult]


class EvaluationRead(BaseModel):
    id: uuid.UUID
    knowledge_base_id: uuid.UUID
    job_id: uuid.UUID | None
    name: str | None
    status: str = Field(description="`queued`, `running`, `succeeded` or `failed`.")
    queries: int
    judgments: int
    configurations: list[str]
    results: EvaluationResults | None = None
    error: str | None = None
    created_at: datetime
    finished_at: datetime | None = None


class EvaluationSummary(BaseModel):
    """An evaluation in a listing: its means, without per-query rows."""

    id: uuid.UUID
    name: str | None
    status: str
    created_at: datetime
    finished_at: datetime | None = None
    measures: dict[str, Measures] = Field(
        default_factory=dict, description="Per configuration name, once succeeded."
    )
