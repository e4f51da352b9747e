"""All SQL of search: per-request planner settings, the fused candidate query, hit context.

The hybrid query is one statement: per knowledge base a vector candidate list (ordered by the
exact expression of that knowledge base's partial HNSW index) and a full-text candidate list
(GIN), an optional trigram fallback, a FULL OUTER JOIN of the sides, the fused score, and the
page of hits joined back to chunks and documents. See docs/search.md.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    CTE,
    Float,
    Integer,
    Select,
    String,
    Text,
    Uuid,
    and_,
    any_,
    bindparam,
    case,
    cast,
    column,
    exists,
    false,
    func,
    literal,
    literal_column,
    null,
    or_,
    select,
    text,
    true,
    union_all,
)
from sqlalchemy.dialects.postgresql import ARRAY, REAL, REGCONFIG, TSQUERY
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import BindParameter, ColumnElement
from sqlalchemy.types import UserDefinedType

from app.chunks.vector_index import vector_cast
from app.db.tenancy import search_path_for
from app.kit.filters import Field, FieldKind, FieldMap
from app.models import Chunk, Document

chunks = Chunk.__table__
documents = Document.__table__

RRF_K = 60
# Terms a text query scores (the rest still match): the query's most repeated lexemes first.
MAX_SCORED_TERMS = 64
LN_2 = 0.6931471805599453
TRIGRAM_THRESHOLD = 0.5
HEADLINE_SEPARATOR = "\x1e"
HEADLINE_OPTIONS = (
    "MaxFragments=3, MinWords=6, MaxWords=24, StartSel=<mark>, StopSel=</mark>, "
    f"FragmentDelimiter={HEADLINE_SEPARATOR}"
)
MAX_PARENT_TEXT = 4000

SEARCH_FIELDS = FieldMap(
    fields={
        "chunk_id": Field(FieldKind.UUID, chunks.c.id),
        "doc_id": Field(FieldKind.UUID, chunks.c.document_id),
        "doc_title": Field(FieldKind.TEXT, documents.c.title),
        "external_id": Field(FieldKind.TEXT, documents.c.external_id, nullable=True),
        "source_uri": Field(FieldKind.TEXT, documents.c.source_uri, nullable=True),
        "source_id": Field(FieldKind.UUID, documents.c.source_id, nullable=True),
        "source_record_id": Field(FieldKind.TEXT, documents.c.source_record_id, nullable=True),
        "filename": Field(FieldKind.TEXT, documents.c.filename, nullable=True),
        "format": Field(FieldKind.TEXT, documents.c.format, nullable=True),
        "created_at": Field(FieldKind.DATETIME, documents.c.created_at),
        "updated_at": Field(FieldKind.DATETIME, documents.c.updated_at),
        "chunk_index": Field(FieldKind.INTEGER, chunks.c.chunk_index),
        "depth": Field(FieldKind.INTEGER, chunks.c.depth),
        "page": Field(
            FieldKind.PAGE_RANGE, chunks.c.page_start, nullable=True, end=chunks.c.page_end
        ),
        "section_titles": Field(FieldKind.TEXT_LIST, chunks.c.section_titles),
        "node_path": Field(FieldKind.TEXT_LIST, chunks.c.node_path),
    },
    metadata=(chunks.c.metadata, documents.c.metadata),
)


# The filter fields that belong to a chunk's document: a filter that names only these (and the
# caller's document visibility) chooses documents before chunks (`prefilter_documents`).
DOCUMENT_FIELDS = FieldMap(
    fields={
        "doc_id": Field(FieldKind.UUID, documents.c.id),
        **{
            name: spec
            for name, spec in SEARCH_FIELDS.fields.items()
            if getattr(spec.column, "table", None) is documents
        },
    }
)
# The same, with metadata keys read from the document: right where no chunk of the searched
# knowledge bases has metadata of its own (`own_chunk_metadata`), as ingested chunks do not.
DOCUMENT_FIELDS_AND_METADATA = FieldMap(
    fields=DOCUMENT_FIELDS.fields, metadata=(documents.c.metadata,)
)
# When the chosen documents hold few enough chunks, those are scored exactly (one distance
# each, through the document index) instead of walking the HNSW graph until enough of its
# entries pass the filter. Measured over 100,000 chunks, one client, vector mode: exact costs
# about 5 us per chunk (2,000: 14 ms; 10,000: 53 ms), the filtered walk about 10 ms plus 0.9 ms
# per 1/percent passing (2 %: 55 ms; 5 %: 33 ms; 10 %: 21 ms). So: exact up to a tenth of the
# knowledge base's chunks, never above 5,000, always up to 1,000 (docs/search.md).
PREFILTER_MAX_CHUNKS = 5_000
PREFILTER_MIN_CHUNKS = 1_000
PREFILTER_MAX_DOCUMENTS = 5_000


def prefilter_limit(total_chunks: int) -> int:
    """How many chosen chunks are still cheaper to score exactly than to find by the walk."""
    return min(PREFILTER_MAX_CHUNKS, max(PREFILTER_MIN_CHUNKS, total_chunks // 10))


class _Cast(UserDefinedType[Any]):
    """A SQL type spelled verbatim, for casts to `vector(384)` or `halfvec(3072)`."""

    cache_ok = True

    def __init__(self, spec: str) -> None:
        self.spec = spec

    def get_col_spec(self, **_: Any) -> str:
        return self.spec


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
    # Whether each candidate's document is looked up (status, filter, visibility): not
    # needed for a search with neither filter nor visibility limit where no failed document
    # of the searched knowledge bases holds chunks (`Prepared.failed_with_chunks`).
    check_documents: bool = True


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


async def prepare(
    session: AsyncSession,
    *,
    ef_search: int,
    query: str | None,
    languages: Sequence[str],
    websearch: bool,
    knowledge_base_ids: Sequence[uuid.UUID],
) -> Prepared:
    """Set the transaction's planner settings and parse the query once per language.

    `plan_cache_mode`: a partial HNSW index only matches when the planner sees the knowledge
    base id, i.e. in a custom plan. `iterative_scan`: a filtered (or not-yet-ready) chunk does
    not cost a hit, the index scan goes on until the LIMIT is met. `work_mem`: the text side
    keeps its matched chunks in memory to count document frequencies. `enable_sort = off`:
    under row-level security the tenancy predicates make the planner expect a handful of
    rows and sort them exactly instead of reading the HNSW index in order; a disabled sort
    is still used where nothing else gives the order (the fused ranking, the text side).
    """
    settings = [
        "set_config('hnsw.ef_search', :ef, true)",
        "set_config('hnsw.iterative_scan', 'relaxed_order', true)",
        "set_config('plan_cache_mode', 'force_custom_plan', true)",
        "set_config('work_mem', '64MB', true)",
        "set_config('enable_sort', 'off', true)",
        "set_config('pg_trgm.word_similarity_threshold', :trgm, true)",
    ]
    params: dict[str, Any] = {
        "ef": str(ef_search),
        "trgm": str(TRIGRAM_THRESHOLD),
        "kbs": list(knowledge_base_ids),
    }
    # Failed documents are few (a partial index holds them) and normally hold no chunks: a
    # document's chunks are written with its `ready` status, and a failed reindex keeps the
    # document ready. Only the chunk API can put chunks under a failed document.
    settings.append(
        "EXISTS (SELECT 1 FROM documents d WHERE d.knowledge_base_id = ANY(CAST(:kbs AS uuid[])) "
        "AND d.status = 'failed' AND EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.id)) "
        "AS failed_with_chunks"
    )
    path = search_path_for(session)
    if path is not None:  # keeps the GIN indexes usable under RLS
        settings.append("set_config('search_path', :path, true)")
        params["path"] = path
    has_query = query is not None and bool(query.strip())
    wanted = list(dict.fromkeys(languages)) if has_query else []
    # Per language: the query's lexemes (stemmed, stop words dropped, exactly as chunks are
    # indexed), most repeated first, and its websearch tsquery. One statement with the
    # settings: a search costs as few round trips as it can.
    for i, language in enumerate(wanted):
        params[f"lang_{i}"] = language
        settings.append(
            "(SELECT array_agg(lexeme ORDER BY cardinality(positions) DESC, positions[1]) "
            f"FROM unnest(to_tsvector(CAST(:lang_{i} AS regconfig), :query))) AS lexemes_{i}"
        )
        settings.append(
            f"CASE WHEN :websearch THEN nullif(websearch_to_tsquery(CAST(:lang_{i} AS "
            f"regconfig), :query)::text, '') END AS websearch_{i}"
        )
    if wanted:
        params |= {"query": query, "websearch": websearch}
    row = (await session.execute(text("SELECT " + ", ".join(settings)), params)).mappings().one()
    failed_with_chunks = bool(row["failed_with_chunks"])
    if not wanted:
        return Prepared(
            {language: TextQuery(None, [], websearch=websearch) for language in languages},
            failed_with_chunks,
        )
    found: dict[str, TextQuery] = {}
    for i, language in enumerate(wanted):
        lexemes: list[str] = list(row[f"lexemes_{i}"] or [])
        # `any`: OR the lexemes. websearch_to_tsquery ANDs every term, which kills recall for
        # natural-language questions (measured on SciFact: docs/search.md).
        tsquery = (
            row[f"websearch_{i}"] if websearch else (" | ".join(map(quote_lexeme, lexemes)) or None)
        )
        found[language] = TextQuery(tsquery, lexemes[:MAX_SCORED_TERMS], lexemes, websearch)
    return Prepared(found, failed_with_chunks)


def quote_lexeme(lexeme: str) -> str:
    """A lexeme in tsquery input syntax: quoted, with quotes and backslashes doubled."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


async def prefilter_documents(
    session: AsyncSession,
    knowledge_base_ids: Sequence[uuid.UUID],
    condition: ColumnElement[bool],
    *,
    max_chunks: int,
) -> list[uuid.UUID] | None:
    """The documents that pass a document-level condition, when they hold at most
    `max_chunks` chunks (`prefilter_limit`); None when they do not (the HNSW scan filters as
    it goes then).

    Decided in SQL over at most PREFILTER_MAX_DOCUMENTS + 1 documents, so an unselective
    condition (most of a big knowledge base visible to the caller) costs one short scan and
    sends back nothing.
    """
    passing = (
        select(documents.c.id, documents.c.chunk_count)
        .where(
            documents.c.knowledge_base_id.in_(list(knowledge_base_ids)),
            documents.c.status != "failed",
            condition,
        )
        .limit(PREFILTER_MAX_DOCUMENTS + 1)
        .subquery("passing")
    )
    few = and_(
        func.count() <= PREFILTER_MAX_DOCUMENTS,
        func.coalesce(func.sum(passing.c.chunk_count), 0) <= max_chunks,
    )
    chosen = await session.scalar(
        select(
            case(
                (few, func.coalesce(func.array_agg(passing.c.id), cast(literal([]), ARRAY(Uuid)))),
                else_=null(),
            )
        )
    )
    return None if chosen is None else list(chosen)


async def absent_metadata_keys(
    session: AsyncSession,
    knowledge_base_ids: Sequence[uuid.UUID],
    keys: Sequence[str],
    visible: ColumnElement[bool],
) -> list[str]:
    """The keys that no readable document, and no chunk of its own, of these knowledge bases
    has in its metadata, in one statement. Each check stops at the first holder of its key;
    proving a key absent reads the knowledge bases' documents, so it is asked only when a
    filtered search found nothing."""
    wanted = (
        func.unnest(bindparam("keys", list(keys), ARRAY(Text)))
        .table_valued(column("key", Text))
        .render_derived(name="wanted")
    )
    kbs = list(knowledge_base_ids)
    in_documents = (
        select(documents.c.id)
        .where(
            documents.c.knowledge_base_id.in_(kbs),
            documents.c.metadata.has_key(wanted.c.key),
            visible,
        )
        .exists()
    )
    in_chunks = (
        select(chunks.c.id)
        .where(
            chunks.c.knowledge_base_id.in_(kbs),
            chunks.c.own_metadata,
            chunks.c.metadata.has_key(wanted.c.key),
        )
        .exists()
    )
    found = await session.scalars(
        select(wanted.c.key).where(~in_documents, ~in_chunks).order_by(wanted.c.key)
    )
    return list(found)


async def own_chunk_metadata(
    session: AsyncSession, knowledge_base_ids: Sequence[uuid.UUID]
) -> bool:
    """Whether any chunk of these knowledge bases has metadata of its own (a partial index)."""
    found = await session.scalar(
        select(
            exists().where(
                chunks.c.knowledge_base_id.in_(list(knowledge_base_ids)), chunks.c.own_metadata
            )
        )
    )
    return bool(found)


async def chunk_counts(
    session: AsyncSession, knowledge_base_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, int]:
    """Chunks per knowledge base (the N of inverse document frequency)."""
    rows = await session.execute(
        select(chunks.c.knowledge_base_id, func.count())
        .where(chunks.c.knowledge_base_id.in_(list(knowledge_base_ids)))
        .group_by(chunks.c.knowledge_base_id)
    )
    counts = {kb_id: int(n) for kb_id, n in rows.all()}
    return {kb_id: counts.get(kb_id, 0) for kb_id in knowledge_base_ids}


def _scope(target: Target, plan: Plan, index: int) -> Select[Any]:
    """Chunks of the knowledge base whose document has not failed and that pass the filter.

    The document side is a correlated scalar subquery (a primary-key probe per candidate
    chunk), not a join: a join lets the planner drive from `documents`, and under row-level
    security its tenancy predicates make it expect a handful of documents, so it would walk
    every chunk by document instead of reading the HNSW or GIN index of chunks.
    """
    scope = (
        select()
        .select_from(chunks)
        .where(chunks.c.knowledge_base_id == bindparam(f"kb_{index}", target.knowledge_base_id))
    )
    if plan.check_documents:
        document_ok = (
            select(and_(documents.c.status != "failed", plan.condition))
            .where(documents.c.id == chunks.c.document_id)
            .scalar_subquery()
        )
        scope = scope.where(document_ok)
    if plan.documents is not None:
        chosen = bindparam("prefiltered_documents", list(plan.documents), ARRAY(Uuid))
        scope = scope.where(chunks.c.document_id == any_(chosen))
    return scope


def _vector_cte(plan: Plan) -> CTE:
    spec = vector_cast(plan.dimensions)
    query_vector = _query_vector(plan)
    sides = []
    for index, target in enumerate(plan.targets):
        distance = cast(chunks.c.embedding, _Cast(spec)).op("<=>", return_type=Float)(query_vector)
        # Prefiltered: an order the HNSW index cannot give, so the chosen documents' chunks
        # are read through the document index and every one is scored (exact).
        order = distance if plan.documents is None else distance + 0.0
        side = (
            _scope(target, plan, index)
            .add_columns(chunks.c.id.label("id"), distance.label("distance"))
            .where(chunks.c.embedding.is_not(None))
            .order_by(order)
            .limit(plan.candidates)
            .subquery(f"vector_{index}")
        )
        sides.append(select(side.c.id, side.c.distance))
    merged = sides[0].subquery() if len(sides) == 1 else union_all(*sides).subquery()
    best = (
        select(merged.c.id, merged.c.distance)
        .order_by(merged.c.distance, merged.c.id)
        .limit(plan.candidates)
        .subquery("vector_best")
    )
    similarity = (1 - best.c.distance).label("similarity")
    return select(
        best.c.id,
        similarity,
        func.row_number().over(order_by=(best.c.distance, best.c.id)).label("rank"),
        func.min(1 - best.c.distance).over().label("low"),
        func.max(1 - best.c.distance).over().label("high"),
    ).cte("vector_side")


def _text_cte(plan: Plan, vector: CTE | None) -> tuple[CTE, CTE | None]:
    """The full-text candidates, and (with a vector side) the text score of every vector
    candidate, so that weighted fusion compares true scores on both sides."""
    sides = []
    completions = []
    for index, target in enumerate(plan.targets):
        if target.tsquery is None or not target.terms:
            continue
        tsquery = cast(bindparam(f"tsq_{index}", target.tsquery, Text), TSQUERY)
        # Each matched chunk's tsvector is read (and detoasted) once and cut down to the query's
        # lexemes (setweight marks them, ts_filter keeps them): the per-term work below runs
        # on a handful of positions instead of the whole chunk.
        lexemes = bindparam(f"lexemes_{index}", list(target.terms), ARRAY(Text))
        marked = func.setweight(chunks.c.tsv, literal_column("'A'"), lexemes)
        matched = (
            _scope(target, plan, index)
            .add_columns(
                chunks.c.id.label("id"),
                func.ts_filter(marked, literal_column("'{a}'")).label("hits"),
                func.length(chunks.c.tsv).label("length"),
            )
            .where(chunks.c.tsv.op("@@", is_comparison=True)(tsquery))
            .cte(f"text_match_{index}")
        )
        # The scored terms travel as arrays (one row each below), so the statement's shape,
        # and SQLAlchemy's compiled form of it, does not change with the query's length.
        # The array is cast to tsquery[] once; a cast of each unnested term was parsed again
        # for every matched chunk its frequency was counted on.
        quoted = bindparam(f"terms_{index}", [quote_lexeme(t) for t in target.terms], ARRAY(Text))
        terms = (
            func.unnest(
                cast(quoted, ARRAY(TSQUERY)),
                bindparam(
                    f"known_{index}", [target.common.get(t) for t in target.terms], ARRAY(Integer)
                ),
            )
            .table_valued(column("term", TSQUERY), column("known", Integer))
            .render_derived(name=f"query_terms_{index}")
        )
        term = terms.c.term
        matched_count = select(func.count()).select_from(matched).scalar_subquery()
        # A term's document frequency is counted on the matched set, where every chunk that
        # holds it matches, unless it is common and its frequency known (text_statistics.py).
        counted = (
            select(func.count())
            .select_from(matched)
            .where(matched.c.hits.op("@@", is_comparison=True)(term))
            .scalar_subquery()
        )
        # Materialised apart from the idf below: the formula names df twice, and Postgres
        # would run the counting subquery once for each mention.
        frequencies = (
            select(term.label("term"), func.coalesce(terms.c.known, counted).label("df"))
            .select_from(terms)
            .cte(f"text_df_{index}")
            .prefix_with("MATERIALIZED")
        )
        df = frequencies.c.df
        total = func.greatest(bindparam(f"n_{index}", target.chunk_count, Integer), matched_count)
        weights = (
            select(
                frequencies.c.term,
                func.ln(1.0 + (total - df + 0.5) / (df + 0.5), type_=Float).label("idf"),
            )
            .select_from(frequencies)
            .cte(f"text_idf_{index}")
            # Computed once: inlined, a misestimated plan would recount it per chunk.
            .prefix_with("MATERIALIZED")
        )
        raw = (
            func.sum(weights.c.idf * func.ts_rank(matched.c.hits, weights.c.term, type_=Float))
            * LN_2
            / _length_norm(matched.c.length)
        )
        score = raw / (raw + 1.0)
        side = (
            select(matched.c.id, score.label("score"))
            .select_from(matched.join(weights, true()))
            .group_by(matched.c.id, matched.c.length)
            .order_by(score.desc())
            .limit(plan.candidates)
            .subquery(f"text_{index}")
        )
        sides.append(select(side.c.id, side.c.score))
        if vector is not None:
            completions.append(_text_completion(vector, target, index, lexemes, weights))
    if not sides:
        empty = select(
            cast(null(), chunks.c.id.type).label("id"), cast(null(), Float).label("score")
        ).where(false())
        sides.append(empty)
    merged = sides[0].subquery() if len(sides) == 1 else union_all(*sides).subquery()
    fulltext = (
        select(merged.c.id, merged.c.score)
        .order_by(merged.c.score.desc(), merged.c.id)
        .limit(plan.candidates)
        .cte("fulltext_side")
    )
    if not completions:
        return fulltext, None
    completion = (completions[0] if len(completions) == 1 else union_all(*completions)).cte(
        "text_completion"
    )
    return fulltext, completion


def _length_norm(length: Any) -> ColumnElement[float]:
    """ln(length + 1) of a chunk's lexeme count, with the count at least 1: a chunk without
    words ("...", "-") has length 0 and would divide by ln(1) = 0; it matches no term, so its
    sum is 0 and so is its score."""
    # Typed: an untyped ln() made SQLAlchemy cast the divisor to NUMERIC, and the score of
    # every matched chunk was computed in numeric (about 4 % of the CPU).
    return func.ln(func.greatest(length, 1) + 1.0, type_=Float)


def _text_completion(
    vector: CTE, target: Target, index: int, lexemes: Any, weights: CTE
) -> Select[Any]:
    """The text score, exactly as the text side computes it, of this knowledge base's vector
    candidates (a chunk holding none of the query's terms scores 0)."""
    candidate = chunks.alias(f"completion_{index}")
    hits = func.ts_filter(
        func.setweight(candidate.c.tsv, literal_column("'A'"), lexemes), literal_column("'{a}'")
    )
    raw = (
        func.sum(weights.c.idf * func.ts_rank(hits, weights.c.term, type_=Float))
        * LN_2
        / _length_norm(func.min(func.length(candidate.c.tsv)))
    )
    return (
        select(candidate.c.id, (raw / (raw + 1.0)).label("score"))
        .select_from(vector.join(candidate, candidate.c.id == vector.c.id).join(weights, true()))
        .where(candidate.c.knowledge_base_id == bindparam(f"kb_{index}", target.knowledge_base_id))
        .group_by(candidate.c.id)
    )


def _trigram_cte(plan: Plan, fulltext: CTE) -> CTE:
    """Chunks whose words are like the query's words: the mean of each word's similarity
    (`word_similarity`) passes the threshold, as one word's must. One needle of all the words
    matched only where they stood side by side: two misspelled words apart in a chunk found
    nothing."""
    assert plan.trigram_words
    words = [bindparam(f"trigram_{i}", word, String) for i, word in enumerate(plan.trigram_words)]
    similarity = sum(
        (func.word_similarity(word, chunks.c.text, type_=Float) for word in words[1:]),
        func.word_similarity(words[0], chunks.c.text, type_=Float),
    ) / float(len(words))
    # One GIN trigram probe per word (a BitmapOr), then the mean decides.
    like_any = or_(*(word.op("<%", is_comparison=True)(chunks.c.text) for word in words))
    like_all = and_(like_any, similarity >= TRIGRAM_THRESHOLD)
    # Whether the fallback runs must not depend on the offset: every page sees one pool. And
    # full text that filled its candidates found enough: the fallback would only re-find the
    # matches cut off by that limit, level with the weakest kept one.
    wanted = min(plan.limit, plan.candidates)
    sides = []
    for index, target in enumerate(plan.targets):
        side = (
            _scope(target, plan, index)
            .add_columns(chunks.c.id.label("id"), similarity.label("score"))
            .where(
                like_all,
                chunks.c.id.not_in(select(fulltext.c.id)),
                # Runs only when full text found too little (a one-time filter).
                select(func.count()).select_from(fulltext).scalar_subquery() < wanted,
            )
            .order_by(similarity.desc())
            .limit(plan.candidates)
            .subquery(f"trigram_{index}")
        )
        sides.append(select(side.c.id, side.c.score))
    merged = sides[0].subquery() if len(sides) == 1 else union_all(*sides).subquery()
    return (
        select(merged.c.id, merged.c.score)
        .order_by(merged.c.score.desc(), merged.c.id)
        .limit(plan.candidates)
        .cte("trigram_side")
    )


def _text_side(plan: Plan, vector: CTE | None) -> tuple[CTE, CTE, CTE | None, CTE | None]:
    fulltext, completion = _text_cte(plan, vector)
    trigram = _trigram_cte(plan, fulltext) if plan.trigram_words else None
    parts = [select(fulltext.c.id, fulltext.c.score, literal(0, Integer).label("kind"))]
    if trigram is not None:
        # Trigram hits rank after every full-text hit: scaled below the weakest of them.
        floor = func.coalesce(select(func.min(fulltext.c.score)).scalar_subquery(), 1.0)
        parts.append(
            select(trigram.c.id, (trigram.c.score * floor).label("score"), literal(1, Integer))
        )
    merged = parts[0].subquery() if len(parts) == 1 else union_all(*parts).subquery()
    side = select(
        merged.c.id,
        merged.c.score,
        merged.c.kind,
        func.row_number()
        .over(order_by=(merged.c.kind, merged.c.score.desc(), merged.c.id))
        .label("rank"),
        func.min(merged.c.score).over().label("low"),
        func.max(merged.c.score).over().label("high"),
    ).cte("text_side")
    return side, fulltext, trigram, completion


def _minmax(value: Any, low: Any, high: Any, present: Any) -> ColumnElement[float]:
    return case(
        (present.is_(None), 0.0),
        (high == low, 1.0),
        else_=(value - low) / (high - low),
    )


def _vector_values(vector: Sequence[float]) -> list[float]:
    return [float(x) for x in vector]


def _query_vector(plan: Plan) -> ColumnElement[Any]:
    """The query vector, sent as a binary float4[] and cast in SQL. As a '[...]' text literal
    it was parsed (one strtof per component) at every mention in the plan: about 5 % of
    Postgres's CPU per hybrid search (perf)."""
    assert plan.vector is not None
    values = bindparam("query_vector", _vector_values(plan.vector), ARRAY(REAL))
    return cast(cast(values, ARRAY(REAL)), _Cast(vector_cast(plan.dimensions)))


def _completed_weighted(plan: Plan, vector: CTE, text_side: CTE, completion: CTE | None) -> CTE:
    """Weighted fusion on true scores: a text-only candidate gets its cosine similarity (one
    distance from its stored vector), a vector-only one its text score (`completion`), and
    each side is min-max normalised over every candidate of the union. A side's score is
    missing (0 after normalisation) only where it cannot exist: no stored vector, or a
    trigram-only hit."""
    w = plan.vector_weight
    spec = vector_cast(plan.dimensions)
    other = chunks.alias("vector_completion")
    joined = vector.join(text_side, vector.c.id == text_side.c.id, full=True).outerjoin(
        other, and_(vector.c.id.is_(None), other.c.id == text_side.c.id)
    )
    text_score: Any = func.coalesce(text_side.c.score, 0.0)
    if completion is not None:
        joined = joined.outerjoin(completion, completion.c.id == vector.c.id)
        text_score = func.coalesce(text_side.c.score, completion.c.score, 0.0)
    distance = cast(other.c.embedding, _Cast(spec)).op("<=>", return_type=Float)(
        _query_vector(plan)
    )
    similarity = func.coalesce(vector.c.similarity, 1 - distance)
    base = (
        select(
            func.coalesce(vector.c.id, text_side.c.id).label("id"),
            similarity.label("completed"),
            text_score.label("text_completed"),
            *_explain_columns(vector, text_side),
        )
        .select_from(joined)
        .subquery("completed")
    )
    v_low, v_high = func.min(base.c.completed).over(), func.max(base.c.completed).over()
    t_low, t_high = func.min(base.c.text_completed).over(), func.max(base.c.text_completed).over()
    v_norm = _minmax(base.c.completed, v_low, v_high, base.c.completed)
    t_norm = _minmax(base.c.text_completed, t_low, t_high, base.c.text_completed)
    # explain shows what fusion used: the completed scores and their normalised values, so
    # that score = w * vector_normalized + (1 - w) * text_normalized can be checked per hit.
    return select(
        base.c.id,
        cast(w * v_norm + (1 - w) * t_norm, Float).label("score"),
        base.c.vector_rank,
        base.c.completed.label("vector_similarity"),
        base.c.text_rank,
        base.c.text_completed.label("text_score"),
        base.c.text_kind,
        cast(v_norm, Float).label("vector_normalized"),
        cast(t_norm, Float).label("text_normalized"),
    ).cte("fused")


def _explain_columns(vector: CTE, text_side: CTE) -> list[ColumnElement[Any]]:
    """Each side's own rank and score of a fused candidate (what `include=explain` shows)."""
    return [
        vector.c.rank.label("vector_rank"),
        vector.c.similarity.label("vector_similarity"),
        text_side.c.rank.label("text_rank"),
        text_side.c.score.label("text_score"),
        text_side.c.kind.label("text_kind"),
    ]


def _no_normalisation() -> list[ColumnElement[Any]]:
    """Rank fusion and single-side searches normalise nothing."""
    return [
        cast(null(), Float).label("vector_normalized"),
        cast(null(), Float).label("text_normalized"),
    ]


def _fused(plan: Plan, vector: CTE | None, text_side: CTE | None, completion: CTE | None) -> CTE:
    w = plan.vector_weight
    if vector is not None and text_side is not None:
        if not plan.rrf:
            return _completed_weighted(plan, vector, text_side, completion)
        score = (RRF_K + 1) * (
            func.coalesce(w / (RRF_K + vector.c.rank), 0.0)
            + func.coalesce((1 - w) / (RRF_K + text_side.c.rank), 0.0)
        )
        return (
            select(
                func.coalesce(vector.c.id, text_side.c.id).label("id"),
                cast(score, Float).label("score"),
                *_explain_columns(vector, text_side),
                *_no_normalisation(),
            )
            .select_from(vector.join(text_side, vector.c.id == text_side.c.id, full=True))
            .cte("fused")
        )
    if vector is not None:
        return select(
            vector.c.id,
            vector.c.similarity.label("score"),
            vector.c.rank.label("vector_rank"),
            vector.c.similarity.label("vector_similarity"),
            cast(null(), Integer).label("text_rank"),
            cast(null(), Float).label("text_score"),
            cast(null(), Integer).label("text_kind"),
            *_no_normalisation(),
        ).cte("fused")
    assert text_side is not None
    return select(
        text_side.c.id,
        text_side.c.score.label("score"),
        cast(null(), Integer).label("vector_rank"),
        cast(null(), Float).label("vector_similarity"),
        text_side.c.rank.label("text_rank"),
        text_side.c.score.label("text_score"),
        text_side.c.kind.label("text_kind"),
        *_no_normalisation(),
    ).cte("fused")


def _headline(plan: Plan) -> ColumnElement[Any]:
    queries = [(t.knowledge_base_id, t.tsquery) for t in plan.targets if t.tsquery is not None]
    if not queries:
        return cast(null(), Text)
    if len({q for _, q in queries}) == 1:
        tsquery: Any = cast(bindparam("headline_q", queries[0][1], Text), TSQUERY)
    else:
        tsquery = case(
            *[
                (chunks.c.knowledge_base_id == kb_id, cast(literal(q, Text), TSQUERY))
                for kb_id, q in queries
            ],
        )
    return func.ts_headline(
        cast(chunks.c.ts_config, REGCONFIG),
        chunks.c.text,
        tsquery,
        bindparam("headline_options", HEADLINE_OPTIONS, Text),
        type_=Text,
    )


def statement(plan: Plan) -> Select[Any]:
    """The fused candidate query of a plan (also what tests EXPLAIN)."""
    vector = _vector_cte(plan) if plan.vector is not None else None
    text_side = fulltext = trigram = completion = None
    if plan.use_text:
        text_side, fulltext, trigram, completion = _text_side(plan, vector)
    fused = _fused(plan, vector, text_side, completion)

    page_query = select(fused)
    if plan.threshold is not None:
        page_query = page_query.where(fused.c.score >= plan.threshold)
    page = (
        # A trigram hit can score level with the weakest full-text hit (similarity 1 times
        # that score); the kind keeps it after it, as the text side ranks them.
        page_query.order_by(fused.c.score.desc(), fused.c.text_kind.asc().nulls_first(), fused.c.id)
        .limit(plan.limit)
        .offset(plan.offset)
        .subquery("page")
    )

    def count(cte: CTE | None) -> ColumnElement[int]:
        if cte is None:
            return literal(0, Integer)
        return select(func.count()).select_from(cte).scalar_subquery()

    counts = select(
        count(vector).label("vector_count"),
        count(fulltext).label("text_count"),
        count(trigram).label("trigram_count"),
    ).cte("counts")

    title = func.coalesce(func.nullif(documents.c.title, ""), chunks.c.doc_title)
    columns: list[Any] = [
        page.c.id,
        page.c.score,
        page.c.vector_rank,
        page.c.vector_similarity,
        page.c.text_rank,
        page.c.text_score,
        page.c.text_kind,
        page.c.vector_normalized,
        page.c.text_normalized,
        chunks.c.document_id,
        chunks.c.knowledge_base_id,
        title.label("doc_title"),
        chunks.c.text,
        chunks.c.chunk_index,
        chunks.c.node_path,
        chunks.c.section_titles,
        chunks.c.spans,
        chunks.c.depth,
        chunks.c.leaf_node_id,
        chunks.c.page_start,
        chunks.c.page_end,
        chunks.c.start_offset,
        chunks.c.end_offset,
        documents.c.metadata.op("||")(chunks.c.metadata).label("metadata"),
        _headline(plan).label("headline"),
        chunks.c.embedding if plan.with_vectors else cast(null(), Text).label("embedding"),
    ]
    hits = (
        select(*columns)
        .select_from(
            page.join(chunks, chunks.c.id == page.c.id).join(
                documents, documents.c.id == chunks.c.document_id
            )
        )
        .subquery("hits")
    )
    return (
        select(counts, hits)
        .select_from(counts.outerjoin(hits, true()))
        .order_by(hits.c.score.desc(), hits.c.text_kind.asc().nulls_first(), hits.c.id)
    )


# Building the statement's expression tree cost about 12 ms of Python per search, 88% of the
# service's own time in one (py-spy, scripts/bench-search), more than Postgres spent on some.
# Statements are therefore kept per shape and reused with this search's values.
STATEMENT_CACHE_SIZE = 256
_statements: dict[tuple[Any, ...], tuple[Select[Any], Sequence[BindParameter[Any]]]] = {}


def shape(plan: Plan) -> tuple[Any, ...] | None:
    """What a plan's statement is built from, apart from `bound_values` and the values of its
    filter; None when its statement must be built for it alone (knowledge bases searched with
    different text queries, whose headline queries are literals of the statement)."""
    if len({t.tsquery for t in plan.targets if t.tsquery is not None}) > 1:
        return None
    return (
        tuple((t.tsquery is not None, bool(t.terms)) for t in plan.targets),
        plan.dimensions,
        plan.vector is not None,
        plan.use_text,
        len(plan.trigram_words),
        plan.candidates,
        plan.rrf,
        plan.vector_weight,
        plan.threshold,
        plan.limit,
        plan.offset,
        plan.with_vectors,
        plan.documents is not None,
        plan.check_documents,
    )


def bound_values(plan: Plan) -> dict[str, Any]:
    """The named parameters of a plan's statement: everything that differs between searches
    of one shape, apart from the filter's values. tests/search/test_statement_cache.py holds
    them equal to the values `statement` binds."""
    values: dict[str, Any] = {}
    for index, target in enumerate(plan.targets):
        values[f"kb_{index}"] = target.knowledge_base_id
        if plan.use_text and target.tsquery is not None and target.terms:
            values[f"tsq_{index}"] = target.tsquery
            values[f"lexemes_{index}"] = list(target.terms)
            values[f"terms_{index}"] = [quote_lexeme(t) for t in target.terms]
            values[f"known_{index}"] = [target.common.get(t) for t in target.terms]
            values[f"n_{index}"] = target.chunk_count
    if plan.vector is not None:
        values["query_vector"] = _vector_values(plan.vector)
    if plan.use_text:
        values |= {f"trigram_{i}": word for i, word in enumerate(plan.trigram_words)}
    queries = {t.tsquery for t in plan.targets if t.tsquery is not None}
    if len(queries) == 1:
        values["headline_q"] = queries.pop()
    if plan.documents is not None:
        values["prefiltered_documents"] = list(plan.documents)
    return values


def prepared(plan: Plan) -> tuple[Select[Any], dict[str, Any]]:
    """The statement for the plan's shape and filter structure, built once, and the values to
    run it with.

    A filter (and the caller's document visibility) is part of the statement; SQLAlchemy's own
    cache key of the condition tells two filters of the same structure apart from their values,
    and lists its bound parameters in the same order for both. The values of this plan's
    filter then travel under the keys of the parameters the cached statement was built with.
    """
    values = bound_values(plan)
    key = shape(plan)
    filter_key = None if key is None else plan.condition._generate_cache_key()
    if key is None or filter_key is None:
        return statement(plan), values
    entry_key = (key, filter_key.key)
    entry = _statements.get(entry_key)
    if entry is None:
        if len(_statements) >= STATEMENT_CACHE_SIZE:
            # Shapes vary with request options (candidates, weights, thresholds, filters):
            # start over rather than grow without bound.
            _statements.clear()
        entry = _statements[entry_key] = (statement(plan), filter_key.bindparams)
    query, built_with = entry
    for old, new in zip(built_with, filter_key.bindparams, strict=True):
        values[old.key] = new.effective_value
    return query, values


async def search(session: AsyncSession, plan: Plan) -> Result:
    """Run the fused candidate query; rows come ordered by score, best first."""
    query, values = prepared(plan)
    result = (await session.execute(query, values)).mappings().all()
    rows = [_row(r) for r in result if r["id"] is not None]
    first = result[0] if result else None
    return Result(
        rows=rows,
        vector_count=int(first["vector_count"]) if first else 0,
        text_count=int(first["text_count"]) if first else 0,
        trigram_count=int(first["trigram_count"]) if first else 0,
    )


def _row(r: Any) -> Row:
    embedding = r["embedding"]
    return Row(
        chunk_id=r["id"],
        doc_id=r["document_id"],
        knowledge_base_id=r["knowledge_base_id"],
        doc_title=r["doc_title"] or "",
        text=r["text"],
        score=float(r["score"]),
        chunk_index=r["chunk_index"],
        node_path=list(r["node_path"] or []),
        section_titles=list(r["section_titles"] or []),
        depth=r["depth"],
        leaf_node_id=r["leaf_node_id"],
        page_start=r["page_start"],
        page_end=r["page_end"],
        spans=list(r["spans"] or []),
        start_offset=r["start_offset"],
        end_offset=r["end_offset"],
        metadata=dict(r["metadata"] or {}),
        headline=r["headline"],
        vector_rank=r["vector_rank"],
        vector_similarity=_float(r["vector_similarity"]),
        text_rank=r["text_rank"],
        text_score=_float(r["text_score"]),
        text_match=None
        if r["text_kind"] is None
        else ("trigram" if r["text_kind"] else "fulltext"),
        vector_normalized=_float(r["vector_normalized"]),
        text_normalized=_float(r["text_normalized"]),
        embedding=None if embedding is None else [float(x) for x in embedding],
    )


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


# --- context ---------------------------------------------------------------------------------


async def tree_paths(
    session: AsyncSession, chunk_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, list[dict[str, Any]]]:
    """For each chunk, the tree nodes along its node_path, root first (text capped).

    Walks down from the root following node ids through each node's `children`, so it reads
    only the children lists on the way, never the whole tree.
    """
    if not chunk_ids:
        return {}
    statement = text(
        """
        WITH RECURSIVE hit AS (
            SELECT c.id, c.node_path, d.tree
            FROM chunks c JOIN documents d ON d.id = c.document_id
            WHERE c.id = ANY(CAST(:ids AS uuid[])) AND d.tree IS NOT NULL
              AND cardinality(c.node_path) > 0
        ), walk(id, depth, node) AS (
            SELECT hit.id, 1, hit.tree->'root' FROM hit
            WHERE hit.tree->'root'->>'node_id' = hit.node_path[1]
            UNION ALL
            SELECT walk.id, walk.depth + 1, child.node
            FROM walk JOIN hit ON hit.id = walk.id
            CROSS JOIN LATERAL (
                SELECT jsonb_path_query_first(
                    walk.node, '$.children[*] ? (@.node_id == $id)',
                    jsonb_build_object('id', hit.node_path[walk.depth + 1])
                ) AS node
            ) child
            WHERE walk.depth < cardinality(hit.node_path) AND child.node IS NOT NULL
        )
        SELECT id, depth, node - 'children' - 'text' AS node,
               left(node->>'text', :cap) AS text, length(node->>'text') > :cap AS truncated
        FROM walk ORDER BY id, depth
        """
    )
    rows = await session.execute(statement, {"ids": list(chunk_ids), "cap": MAX_PARENT_TEXT})
    paths: dict[uuid.UUID, list[dict[str, Any]]] = {}
    for chunk_id, _depth, node, node_text, truncated in rows.all():
        paths.setdefault(chunk_id, []).append(
            {**node, "text": node_text or "", "truncated": bool(truncated)}
        )
    return paths


async def neighbours(
    session: AsyncSession, chunk_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, dict[int, tuple[uuid.UUID, int, str]]]:
    """For each chunk, the chunks just before (-1) and after (+1) it in its document."""
    if not chunk_ids:
        return {}
    statement = text(
        """
        SELECT c.id, n.chunk_index - c.chunk_index AS side, n.id, n.chunk_index, n.text
        FROM chunks c
        JOIN chunks n ON n.document_id = c.document_id
             AND n.chunk_index IN (c.chunk_index - 1, c.chunk_index + 1)
        WHERE c.id = ANY(CAST(:ids AS uuid[]))
        """
    )
    found: dict[uuid.UUID, dict[int, tuple[uuid.UUID, int, str]]] = {}
    for chunk_id, side, other_id, index, other_text in (
        await session.execute(statement, {"ids": list(chunk_ids)})
    ).all():
        found.setdefault(chunk_id, {})[int(side)] = (other_id, index, other_text)
    return found


async def chunk_lineage(
    session: AsyncSession,
    knowledge_base_id: uuid.UUID,
    chunk_ids: Sequence[uuid.UUID],
    *,
    visible: ColumnElement[bool],
) -> list[tuple[uuid.UUID, list[str]]]:
    """The node paths of these chunks of the knowledge base whose documents `visible` admits."""
    if not chunk_ids:
        return []
    rows = await session.execute(
        select(chunks.c.id, chunks.c.node_path)
        .select_from(chunks.join(documents, documents.c.id == chunks.c.document_id))
        .where(
            chunks.c.knowledge_base_id == knowledge_base_id,
            chunks.c.id.in_(list(chunk_ids)),
            visible,
        )
    )
    return [(chunk_id, list(node_path or [])) for chunk_id, node_path in rows.all()]


async def document_origins(
    session: AsyncSession, document_ids: set[uuid.UUID]
) -> dict[uuid.UUID, tuple[uuid.UUID | None, str | None]]:
    """(source id, source record id) of the documents a knowledge source wrote."""
    if not document_ids:
        return {}
    rows = await session.execute(
        select(documents.c.id, documents.c.source_id, documents.c.source_record_id).where(
            documents.c.id.in_(list(document_ids)), documents.c.source_id.is_not(None)
        )
    )
    return {row[0]: (row[1], row[2]) for row in rows.all()}
