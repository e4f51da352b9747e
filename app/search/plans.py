"""What a search runs on: the plan of its statement, the query as full text sees it, its rows."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.sql.elements import ColumnElement


@dataclass(frozen=True, slots=True)
class Target:
    """One knowledge base to search: its tsquery (None: no text side) and the terms it scores.

    `common`: scored terms whose document frequency is known (app/search/text_statistics.py)
    because the tsquery does not match every chunk that holds them.
    """

    knowledge_base_id: uuid.UUID
    tsquery: str | None
    terms: Sequence[str] = ()
    chunk_count: int = 0
    common: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TextQuery:
    """A query as full-text search sees it: what matches, the lexemes (raw) that score, and
    whether the tsquery is the query's own (websearch syntax) rather than any of its lexemes."""

    tsquery: str | None
    terms: list[str]
    lexemes: list[str] = field(default_factory=list)
    websearch: bool = False


@dataclass(frozen=True, slots=True)
class Plan:
    # The project every target belongs to (a search never spans projects).
    project_id: uuid.UUID
    targets: Sequence[Target]
    dimensions: int
    vector: Sequence[float] | None
    use_text: bool
    # The words the trigram fallback looks for, each on its own (none: no fallback).
    trigram_words: Sequence[str]
    condition: ColumnElement[bool]
    candidates: int
    hybrid: bool
    rrf: bool
    vector_weight: float
    threshold: float | None
    limit: int
    offset: int
    with_vectors: bool
    # The only documents whose chunks may match (`prefilter_documents`); None: any.
    documents: Sequence[uuid.UUID] | None = None
    # Documents whose chunks may not match (`hidden_documents`): what the caller may not read
    # and what failed, listed once instead of looked up per candidate chunk.
    excluded_documents: Sequence[uuid.UUID] = ()
    # Whether each candidate's document is looked up (status, filter, visibility): not
    # needed for a search with neither filter nor visibility limit where no failed document
    # of the searched knowledge bases holds chunks (`Prepared.failed_with_chunks`).
    check_documents: bool = True
    # Whether the statement names its knowledge bases in its text, so that Postgres can keep
    # its generic plan (app/search/plan_reuse.py); else they are parameters and every search
    # is planned anew.
    reuse_plan: bool = False


@dataclass(slots=True)
class Row:
    chunk_id: uuid.UUID
    doc_id: uuid.UUID
    knowledge_base_id: uuid.UUID
    doc_title: str
    text: str
    score: float
    chunk_index: int
    node_path: list[str]
    section_titles: list[str]
    depth: int
    leaf_node_id: str | None
    page_start: int | None
    page_end: int | None
    spans: list[dict[str, Any]]
    start_offset: int | None
    end_offset: int | None
    metadata: dict[str, Any]
    headline: str | None
    vector_rank: int | None
    vector_similarity: float | None
    text_rank: int | None
    text_score: float | None
    text_match: str | None
    vector_normalized: float | None = None
    text_normalized: float | None = None
    embedding: list[float] | None = None
    source_id: uuid.UUID | None = None
    source_record_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Result:
    rows: list[Row]
    vector_count: int
    text_count: int
    trigram_count: int


@dataclass(frozen=True, slots=True)
class Prepared:
    """What `prepare` found: the query as each language's full text sees it, and whether a
    failed document of the searched knowledge bases holds chunks (whose chunks search hides,
    so candidates must then be checked against their documents)."""

    queries: dict[str, TextQuery]
    failed_with_chunks: bool


def quote_lexeme(lexeme: str) -> str:
    """A lexeme in tsquery input syntax: quoted, with quotes and backslashes doubled."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"
