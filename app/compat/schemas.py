"""Dify's External Knowledge API, as Dify publishes it: its request, records and errors."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.kit.schemas import RequestModel
from app.kit.strings import StoredText
from app.search.schemas import MAX_QUERY_CHARS

# Dify's comparison operators (its metadata filtering), with the Unicode signs it sends.
DifyOperator = Literal[
    "contains",
    "not contains",
    "start with",
    "end with",
    "is",
    "is not",
    "in",
    "not in",
    "empty",
    "not empty",
    "=",
    "≠",
    ">",
    "<",
    "≥",
    "≤",
    "before",
    "after",
]


class DifyRetrievalSetting(RequestModel):
    top_k: int = Field(ge=1, le=200, description="Maximum number of records.")
    score_threshold: float = Field(
        default=0.0,
        ge=0,
        le=1,
        description="Minimum score (0-1); 0.0 when Dify's score threshold is off.",
    )


class DifyCondition(RequestModel):
    # Dify sends one name per condition in a list (its metadata filter UI allows one).
    name: list[StoredText] | StoredText = Field(description="Metadata field name(s).")
    comparison_operator: DifyOperator
    value: StoredText | float | list[StoredText] | None = Field(
        default=None, description="Omitted for `empty` and `not empty`."
    )


class DifyMetadataCondition(RequestModel):
    logical_operator: Literal["and", "or"] = "and"
    conditions: list[DifyCondition] = Field(max_length=50)


class DifyRetrievalRequest(BaseModel):
    """Dify's request; fields it may add later are ignored rather than refused."""

    knowledge_id: StoredText = Field(
        min_length=1, description="An Arbor knowledge base: its id or its name."
    )
    query: StoredText = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    retrieval_setting: DifyRetrievalSetting
    metadata_condition: DifyMetadataCondition | None = None


class DifyRecord(BaseModel):
    content: str = Field(description="The chunk's text.")
    score: float = Field(description="Relevance in [0, 1] (Arbor's hybrid score).")
    title: str = Field(description="The document's title.")
    metadata: dict[str, Any] = Field(
        description="The document's and chunk's metadata, plus Arbor's `doc_id`, `chunk_id`, "
        "`knowledge_base_id`, `section_path` and pages (always an object, never null)."
    )


class DifyRetrievalResponse(BaseModel):
    records: list[DifyRecord]


class DifyError(BaseModel):
    """Dify's error body: 1001 bad Authorization header, 1002 authorization failed (403);
    2001 no such knowledge base (404)."""

    error_code: int
    error_msg: str
