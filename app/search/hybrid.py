"""The fused search statement of a plan, and the cache of statements built per plan shape.

One statement: per knowledge base a vector candidate list (ordered by the exact expression
of that knowledge base's partial HNSW index) and a full-text candidate list (GIN), an
optional trigram fallback, a FULL OUTER JOIN of the sides, the fused score, and the page of
hits joined back to chunks and documents. See docs/search.md.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    CTE,
    Integer,
    Select,
    Text,
    Uuid,
    and_,
    any_,
    bindparam,
    case,
    cast,
    func,
    literal,
    null,
    select,
    true,
)
from sqlalchemy.dialects.postgresql import ARRAY, REGCONFIG, TSQUERY
from sqlalchemy.sql.elements import ColumnElement

from app.kit.statements import StatementCache
from app.models import Chunk, Document
from app.search import candidates, fusion, text_candidates
from app.search.plans import Plan, quote_lexeme

chunks = Chunk.__table__
documents = Document.__table__


HEADLINE_SEPARATOR = "\x1e"
HEADLINE_OPTIONS = (
    "MaxFragments=3, MinWords=6, MaxWords=24, StartSel=<mark>, StopSel=</mark>, "
    f"FragmentDelimiter={HEADLINE_SEPARATOR}"
)


def _headline(plan: Plan) -> ColumnElement[Any]:
    queries = [(t.knowledge_base_id, t.tsquery) for t in plan.targets if t.tsquery is not None]
    if not queries:
        return cast(null(), Text)
    if len({q for _, q in queries}) == 1:
        tsquery: Any = candidates.tsquery_parameter("headline_q", queries[0][1])
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
    vector = candidates.vector_cte(plan) if plan.vector is not None else None
    text_side = fulltext = trigram = completion = None
    if plan.use_text:
        text_side, fulltext, trigram, completion = text_candidates.text_side(plan, vector)
    fused = fusion.fused(plan, vector, text_side, completion)

    page_query = select(fused)
    if plan.threshold is not None:
        page_query = page_query.where(fused.c.score >= plan.threshold)
    page = (
        # A trigram hit can score level with the weakest full-text hit (similarity 1 times
        # that score); the kind keeps it after it, as the text side ranks them.
        page_query.order_by(
            fused.c.score.desc(),
            fused.c.text_kind.asc().nulls_first(),
            fused.c.id,
            fused.c.knowledge_base_id,
        )
        .limit(candidates.constant(plan.limit))
        .offset(candidates.constant(plan.offset))
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
        page.c.knowledge_base_id,
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
        # The knowledge source that wrote the document, if one did: read with the page's
        # documents here rather than by a second statement per search.
        documents.c.source_id,
        documents.c.source_record_id,
        _headline(plan).label("headline"),
        chunks.c.embedding if plan.with_vectors else cast(null(), Text).label("embedding"),
    ]
    hits = (
        select(*columns)
        .select_from(
            page.join(
                chunks,
                and_(
                    chunks.c.id == page.c.id,
                    chunks.c.knowledge_base_id == page.c.knowledge_base_id,
                    # The searched knowledge bases as constants: the planner reads only their
                    # partitions (and those partitions' indexes) for this join.
                    chunks.c.knowledge_base_id == any_(searched_knowledge_bases(plan)),
                    chunks.c.project_id == candidates.project_parameter(plan),
                ),
            ).join(documents, candidates.its_document())
        )
        .subquery("hits")
    )
    return (
        select(counts, hits)
        .select_from(counts.outerjoin(hits, true()))
        .order_by(
            hits.c.score.desc(),
            hits.c.text_kind.asc().nulls_first(),
            hits.c.id,
            hits.c.knowledge_base_id,
        )
    )


def searched_knowledge_bases(plan: Plan) -> ColumnElement[Any]:
    """The searched knowledge bases (the partitions to read): in the statement's text when
    its plan is kept, like `candidates.knowledge_base_constant`."""
    ids = [t.knowledge_base_id for t in plan.targets]
    return cast(
        bindparam("knowledge_bases", ids, ARRAY(Uuid), literal_execute=plan.reuse_plan),
        ARRAY(Uuid),
    )


# Building the statement's expression tree cost about 12 ms of Python per search, 88% of the
# service's own time in one (py-spy, scripts/bench-search), more than Postgres spent on some.
# Statements are therefore kept per shape and reused with this search's values.
_statements: StatementCache[Select[Any]] = StatementCache()


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
        bool(plan.excluded_documents),
        plan.check_documents,
        plan.reuse_plan,
    )


def bound_values(plan: Plan) -> dict[str, Any]:
    """The named parameters of a plan's statement: everything that differs between searches
    of one shape, apart from the filter's values. tests/search/test_statement_cache.py holds
    them equal to the values `statement` binds."""
    values: dict[str, Any] = {"project": plan.project_id}
    values["knowledge_bases"] = [t.knowledge_base_id for t in plan.targets]
    for index, target in enumerate(plan.targets):
        values[f"kb_{index}"] = target.knowledge_base_id
        if plan.use_text and target.tsquery is not None and target.terms:
            values[f"tsq_{index}"] = target.tsquery
            values[f"lexemes_{index}"] = list(target.terms)
            values[f"terms_{index}"] = [quote_lexeme(t) for t in target.terms]
            values[f"known_{index}"] = [target.common.get(t) for t in target.terms]
            values[f"n_{index}"] = target.chunk_count
    if plan.vector is not None:
        values["query_vector"] = candidates.vector_values(plan.vector)
    if plan.use_text:
        values |= {f"trigram_{i}": word for i, word in enumerate(plan.trigram_words)}
        if plan.trigram_words:
            values["trigram_lexemes"] = text_candidates.trigram_lexemes(plan)
            values["trigram_prefixes"] = text_candidates.prefixes_query(plan.trigram_words)
    queries = {t.tsquery for t in plan.targets if t.tsquery is not None}
    if len(queries) == 1:
        values["headline_q"] = queries.pop()
    if plan.documents is not None:
        values["prefiltered_documents"] = list(plan.documents)
    if plan.excluded_documents:
        values["excluded_documents"] = list(plan.excluded_documents)
    return values


def prepared(plan: Plan) -> tuple[Select[Any], dict[str, Any]]:
    """The statement for the plan's shape and filter structure, built once, and the values to
    run it with. A filter (and the caller's document visibility) is part of the statement: its
    values travel under the keys of the parameters the cached statement was built with
    (app/kit/statements.py)."""
    values = bound_values(plan)
    key = shape(plan)
    if key is None:
        return statement(plan), values
    return _statements.get(key, plan.condition, lambda: statement(plan), values)
