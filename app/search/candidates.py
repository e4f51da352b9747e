"""The candidate queries of the fused statement: vector and full text (the trigram fallback and
the text side that merges it: app/search/text_candidates.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    CTE,
    Float,
    Integer,
    Select,
    Text,
    Uuid,
    all_,
    and_,
    any_,
    bindparam,
    cast,
    column,
    false,
    func,
    literal,
    literal_column,
    null,
    select,
    true,
    union_all,
)
from sqlalchemy.dialects.postgresql import ARRAY, REAL, TSQUERY, TSVECTOR
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.util import ClauseAdapter
from sqlalchemy.types import UserDefinedType

from app.chunks.vector_index import vector_cast
from app.models import Chunk, Document
from app.search.plans import Plan, Target, quote_lexeme

chunks = Chunk.__table__
documents = Document.__table__


LN_2 = 0.6931471805599453


# A statement whose plan Postgres keeps (its generic plan, app/search/plan_reuse.py) can only
# use what the statement text holds, so what the plan depends on is written in it: the
# knowledge base, whose partition and partial HNSW index the planner picks from its id, and
# the row limits, from which it sizes the joins. Values that every row reads are bound with
# their final type (`query_vector`, tsquery parameters): a cast of a parameter is folded once
# in a custom plan but would run per row in a generic one.


def knowledge_base_constant(plan: Plan, target: Target, index: int) -> ColumnElement[Any]:
    """The searched knowledge base's id: written into the statement's text when the plan is
    to be kept (`Plan.reuse_plan`), else a parameter (the statement is shared, and planned for
    each search with the id's value)."""
    return bindparam(f"kb_{index}", target.knowledge_base_id, Uuid, literal_execute=plan.reuse_plan)


def project_parameter(plan: Plan) -> ColumnElement[Any]:
    """The searched project's id, a parameter of every statement. Row-level security already
    keeps other projects' rows out; the tenant named in SQL is what lets a sharded database
    (Citus, distributed by `project_id`: docs/scaling.md) send the statement to the one shard
    that holds the project's rows instead of to all of them."""
    return bindparam("project", plan.project_id, Uuid)


def its_document(table: Any = chunks) -> ColumnElement[bool]:
    """A chunk's document, matched on the document's whole key (id and project), so that the
    join stays within one shard of a database sharded by project. `table`: an alias of
    `chunks`."""
    return and_(documents.c.id == table.c.document_id, documents.c.project_id == table.c.project_id)


def constant(value: int) -> ColumnElement[int]:
    """A row limit written into the statement text (statements are cached per limit)."""
    return literal(value, Integer, literal_execute=True)


def tsquery_parameter(name: str, value: str) -> ColumnElement[Any]:
    """A tsquery sent as a parameter of type tsquery (parsed once by the server)."""
    return cast(bindparam(name, value, TSQUERY), TSQUERY)


class SqlType(UserDefinedType[Any]):
    """A SQL type spelled verbatim, for casts to `vector(384)` or `halfvec(3072)`."""

    cache_ok = True

    def __init__(self, spec: str) -> None:
        self.spec = spec

    def get_col_spec(self, **_: Any) -> str:
        return self.spec


def scope(target: Target, plan: Plan, index: int, table: Any = chunks) -> Select[Any]:
    """Chunks of the knowledge base whose document has not failed and that pass the filter.

    The document side is a correlated scalar subquery (a primary-key probe per candidate
    chunk), not a join: a join lets the planner drive from `documents`, and under row-level
    security its tenancy predicates make it expect a handful of documents, so it would walk
    every chunk by document instead of reading the HNSW or GIN index of chunks. `table`: an
    alias of `chunks`, for a subquery over the scope inside a statement that reads it too.
    """
    scope = (
        select()
        .select_from(table)
        .where(
            table.c.knowledge_base_id == knowledge_base_constant(plan, target, index),
            table.c.project_id == project_parameter(plan),
        )
    )
    if plan.check_documents:
        condition = (
            plan.condition if table is chunks else ClauseAdapter(table).traverse(plan.condition)
        )
        document_ok = (
            select(and_(documents.c.status != "failed", condition))
            .where(its_document(table))
            .scalar_subquery()
        )
        scope = scope.where(document_ok)
    if plan.documents is not None:
        chosen = bindparam("prefiltered_documents", list(plan.documents), ARRAY(Uuid))
        scope = scope.where(table.c.document_id == any_(chosen))
    if plan.excluded_documents:
        hidden = bindparam("excluded_documents", list(plan.excluded_documents), ARRAY(Uuid))
        scope = scope.where(table.c.document_id != all_(hidden))
    return scope


def chunk_key() -> list[ColumnElement[Any]]:
    """What every candidate side carries to name its chunk: its id within its knowledge base
    (two knowledge bases may hold one id)."""
    return [chunks.c.id.label("id"), chunks.c.knowledge_base_id.label("knowledge_base_id")]


def carries_text(plan: Plan) -> bool:
    """Whether the vector candidates carry what their text score needs (weighted hybrid
    fusion completes each vector candidate's text score; rank fusion does not)."""
    return plan.hybrid and not plan.rrf and plan.use_text


def _query_lexemes(target: Target, index: int) -> Any:
    return bindparam(f"lexemes_{index}", list(target.terms), ARRAY(Text))


def _hits(tsv: Any, lexemes: Any) -> ColumnElement[Any]:
    """A chunk's tsvector cut down to the query's lexemes (setweight marks them, ts_filter
    keeps them): the per-term work of the text score then runs on a handful of positions
    instead of the whole chunk."""
    marked = func.setweight(tsv, literal_column("'A'"), lexemes)
    return func.ts_filter(marked, literal_column("'{a}'"))


def _text_columns(target: Target, index: int) -> list[ColumnElement[Any]]:
    """A vector candidate's query lexemes and length, read with the candidate from the HNSW
    scan: its text score is completed from them, where a join back to `chunks` by id cost a
    primary-key probe per candidate and one more mention of `chunks` for the planner, whose
    time grows with every knowledge base's partial index (docs/scaling.md)."""
    if target.tsquery is None or not target.terms:
        return [cast(null(), TSVECTOR).label("hits"), cast(null(), Integer).label("length")]
    return [
        _hits(chunks.c.tsv, _query_lexemes(target, index)).label("hits"),
        func.length(chunks.c.tsv).label("length"),
    ]


def carried_distance(plan: Plan) -> list[ColumnElement[Any]]:
    """A text candidate's distance to the query vector, read with it from the text index:
    weighted fusion gives a text-only candidate its cosine similarity, and computing it here
    costs less than a join back to `chunks` by id (see `_text_columns`)."""
    if not carries_text(plan):
        return []
    distance = cast(chunks.c.embedding, SqlType(vector_cast(plan.dimensions))).op(
        "<=>", return_type=Float
    )(query_vector(plan))
    return [distance.label("distance")]


def vector_cte(plan: Plan) -> CTE:
    spec = vector_cast(plan.dimensions)
    query = query_vector(plan)
    carry = carries_text(plan)
    sides = []
    for index, target in enumerate(plan.targets):
        distance = cast(chunks.c.embedding, SqlType(spec)).op("<=>", return_type=Float)(query)
        # Prefiltered: an order the HNSW index cannot give, so the chosen documents' chunks
        # are read through the document index and every one is scored (exact).
        order = distance if plan.documents is None else distance + 0.0
        side = (
            scope(target, plan, index)
            .add_columns(
                *chunk_key(),
                distance.label("distance"),
                *(_text_columns(target, index) if carry else ()),
            )
            .where(chunks.c.embedding.is_not(None))
            .order_by(order)
            .limit(constant(plan.candidates))
            .subquery(f"vector_{index}")
        )
        sides.append(select(*side.c))
    merged = sides[0].subquery() if len(sides) == 1 else union_all(*sides).subquery()
    best = (
        select(*merged.c)
        .order_by(merged.c.distance, merged.c.id, merged.c.knowledge_base_id)
        .limit(constant(plan.candidates))
        .subquery("vector_best")
    )
    similarity = (1 - best.c.distance).label("similarity")
    carried = [best.c.hits, best.c.length] if carry else []
    return select(
        best.c.id,
        best.c.knowledge_base_id,
        similarity,
        func.row_number()
        .over(order_by=(best.c.distance, best.c.id, best.c.knowledge_base_id))
        .label("rank"),
        func.min(1 - best.c.distance).over().label("low"),
        func.max(1 - best.c.distance).over().label("high"),
        *carried,
    ).cte("vector_side")


def fulltext_cte(plan: Plan, vector: CTE | None) -> tuple[CTE, CTE | None]:
    """The full-text candidates, and (with a vector side) the text score of every vector
    candidate, so that weighted fusion compares true scores on both sides."""
    sides = []
    completions = []
    for index, target in enumerate(plan.targets):
        if target.tsquery is None or not target.terms:
            continue
        tsquery = tsquery_parameter(f"tsq_{index}", target.tsquery)
        # Each matched chunk's tsvector is read (and detoasted) once and cut down to the
        # query's lexemes.
        matched = (
            scope(target, plan, index)
            .add_columns(
                *chunk_key(),
                _hits(chunks.c.tsv, _query_lexemes(target, index)).label("hits"),
                func.length(chunks.c.tsv).label("length"),
                *carried_distance(plan),
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
        carried = [matched.c.distance] if carries_text(plan) else []
        side = (
            select(matched.c.id, matched.c.knowledge_base_id, score.label("score"), *carried)
            .select_from(matched.join(weights, true()))
            .group_by(matched.c.id, matched.c.knowledge_base_id, matched.c.length, *carried)
            .order_by(score.desc())
            .limit(constant(plan.candidates))
            .subquery(f"text_{index}")
        )
        sides.append(select(*side.c))
        if vector is not None and carries_text(plan):
            completions.append(_text_completion(plan, vector, target, index, weights))
    if not sides:
        nothing = [cast(null(), Float).label("distance")] if carries_text(plan) else []
        empty = select(
            cast(null(), chunks.c.id.type).label("id"),
            cast(null(), chunks.c.knowledge_base_id.type).label("knowledge_base_id"),
            cast(null(), Float).label("score"),
            *nothing,
        ).where(false())
        sides.append(empty)
    merged = sides[0].subquery() if len(sides) == 1 else union_all(*sides).subquery()
    fulltext = (
        select(*merged.c)
        .order_by(merged.c.score.desc(), merged.c.id, merged.c.knowledge_base_id)
        .limit(constant(plan.candidates))
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
    plan: Plan, vector: CTE, target: Target, index: int, weights: CTE
) -> Select[Any]:
    """The text score, exactly as the text side computes it, of this knowledge base's vector
    candidates (a chunk holding none of the query's terms scores 0), from the lexemes they
    carry (`_text_columns`)."""
    raw = (
        func.sum(weights.c.idf * func.ts_rank(vector.c.hits, weights.c.term, type_=Float))
        * LN_2
        / _length_norm(func.min(vector.c.length))
    )
    return (
        select(vector.c.id, vector.c.knowledge_base_id, (raw / (raw + 1.0)).label("score"))
        .select_from(vector.join(weights, true()))
        .where(vector.c.knowledge_base_id == knowledge_base_constant(plan, target, index))
        .group_by(vector.c.id, vector.c.knowledge_base_id)
    )


def vector_values(vector: Sequence[float]) -> list[float]:
    return [float(x) for x in vector]


def query_vector(plan: Plan) -> ColumnElement[Any]:
    """The query vector, sent as a binary float4[] and cast in SQL once per statement (an
    InitPlan). As a '[...]' text literal it was parsed (one strtof per component) at every
    mention in the plan: about 5 % of Postgres's CPU per hybrid search (perf); cast where it
    is compared, a generic plan would convert it again for every text candidate."""
    assert plan.vector is not None
    values = bindparam("query_vector", vector_values(plan.vector), ARRAY(REAL))
    return select(
        cast(cast(values, ARRAY(REAL)), SqlType(vector_cast(plan.dimensions)))
    ).scalar_subquery()
