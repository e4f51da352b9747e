"""SQL of search around the fused statement: per-request planner settings and query parsing,
document prefiltering, metadata checks, and running the statement into rows.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    Select,
    Text,
    Uuid,
    and_,
    bindparam,
    case,
    cast,
    column,
    exists,
    false,
    func,
    literal,
    literal_column,
    not_,
    null,
    or_,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import BindParameter, ColumnElement

from app.db.tenancy import search_path_for
from app.kit.statements import StatementCache
from app.models import Chunk, Document
from app.search.hybrid import prepared
from app.search.plans import Plan, Prepared, Result, Row, TextQuery, quote_lexeme

chunks = Chunk.__table__
documents = Document.__table__


# Terms a text query scores (the rest still match): the query's most repeated lexemes first.
MAX_SCORED_TERMS = 64

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


async def prepare(
    session: AsyncSession,
    *,
    ef_search: int,
    query: str | None,
    languages: Sequence[str],
    websearch: bool,
    project_id: uuid.UUID,
    knowledge_base_ids: Sequence[uuid.UUID],
    reuse_plan: bool,
) -> Prepared:
    """Set the transaction's planner settings and parse the query once per language.

    `plan_cache_mode`: Postgres's default where the statement names its knowledge bases in
    its text (`reuse_plan`, app/search/plan_reuse.py), so that its generic plan, kept per
    connection, still reads their partitions and partial HNSW indexes; else a custom plan
    for each search, as only a plan that sees the knowledge base id can use its partial
    index. `iterative_scan`: a filtered (or not-yet-ready) chunk does not cost a hit, the
    index scan goes on until the LIMIT is met. `work_mem`: the text side keeps its matched
    chunks in memory to count document frequencies. `enable_sort = off`: under row-level
    security the tenancy predicates make the planner expect a handful of rows and sort them
    exactly instead of reading the HNSW index in order; a disabled sort is still used where
    nothing else gives the order (the fused ranking, the text side).
    """
    settings = [
        "set_config('hnsw.ef_search', :ef, true)",
        "set_config('hnsw.iterative_scan', 'relaxed_order', true)",
        "set_config('plan_cache_mode', :plan_cache_mode, true)",
        "set_config('work_mem', '64MB', true)",
        "set_config('enable_sort', 'off', true)",
    ]
    params: dict[str, Any] = {
        "ef": str(ef_search),
        "plan_cache_mode": "auto" if reuse_plan else "force_custom_plan",
        "kbs": list(knowledge_base_ids),
        "project": project_id,
    }
    # Failed documents are few (a partial index holds them) and normally hold no chunks: a
    # document's chunks are written with its `ready` status, and a failed reindex keeps the
    # document ready. Only the chunk API can put chunks under a failed document.
    settings.append(
        "EXISTS (SELECT 1 FROM documents d WHERE d.knowledge_base_id = ANY(CAST(:kbs AS uuid[])) "
        "AND d.project_id = :project AND d.status = 'failed' AND EXISTS (SELECT 1 FROM chunks c "
        "WHERE c.knowledge_base_id = ANY(CAST(:kbs AS uuid[])) AND c.project_id = d.project_id "
        "AND c.document_id = d.id)) AS failed_with_chunks"
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


async def prefilter_documents(
    session: AsyncSession,
    project_id: uuid.UUID,
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
            documents.c.project_id == project_id,
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


# At most this many documents hidden from a caller are listed for a search to skip; past it,
# each candidate chunk's document is looked up instead.
HIDDEN_MAX_DOCUMENTS = 1_000


async def hidden_documents(
    session: AsyncSession,
    project_id: uuid.UUID,
    knowledge_base_ids: Sequence[uuid.UUID],
    visible: ColumnElement[bool],
) -> tuple[list[uuid.UUID], int] | None:
    """The documents of these knowledge bases that the caller may not read (`visible` is not
    true of them) or that failed, and how many chunks they hold, when there are at most
    HIDDEN_MAX_DOCUMENTS; None when more.

    Most documents are usually readable by every key of a project: skipping the few that are
    not costs one index scan of `documents`, where checking every candidate's document cost
    a primary-key probe under row-level security per chunk (app/search/document_choice.py)."""
    statement = hidden_documents_statement(project_id, knowledge_base_ids, visible)
    found = (await session.execute(*statement)).all()
    if len(found) > HIDDEN_MAX_DOCUMENTS:
        return None
    return [row.id for row in found], sum(row.chunk_count or 0 for row in found)


# One statement per structure of the caller's visibility, run before nearly every search by a key
# that is not an admin.
_hidden_documents_statements: StatementCache[Select[Any]] = StatementCache()


def hidden_documents_statement(
    project_id: uuid.UUID, knowledge_base_ids: Sequence[uuid.UUID], visible: ColumnElement[bool]
) -> tuple[Select[Any], dict[str, Any]]:
    """`hidden_documents`'s statement, built once per visibility structure, and its values."""
    return _hidden_documents_statements.get(
        "hidden",
        visible,
        lambda: hidden_documents_query(project_id, knowledge_base_ids, visible),
        {"project": project_id, "knowledge_bases": list(knowledge_base_ids)},
    )


def hidden_documents_query(
    project_id: uuid.UUID, knowledge_base_ids: Sequence[uuid.UUID], visible: ColumnElement[bool]
) -> Select[Any]:
    access = documents.c.access
    in_knowledge_bases: BindParameter[list[uuid.UUID]] = bindparam(
        "knowledge_bases", list(knowledge_base_ids), expanding=True
    )
    return (
        select(documents.c.id, documents.c.chunk_count)
        .where(
            documents.c.project_id == bindparam("project", project_id, Uuid),
            documents.c.knowledge_base_id.in_(in_knowledge_bases),
            # What a caller may not read has an access list: the predicate of the partial
            # index `ix_documents_restricted` (migration 0029), so only those are read
            # (constants, not parameters, so that the planner can match it).
            or_(
                documents.c.status == literal_column("'failed'"),
                and_(access.is_not(None), func.jsonb_typeof(access) != literal_column("'null'")),
            ),
            or_(documents.c.status == "failed", not_(func.coalesce(visible, false()))),
        )
        .limit(HIDDEN_MAX_DOCUMENTS + 1)
    )


async def absent_metadata_keys(
    session: AsyncSession,
    project_id: uuid.UUID,
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
            documents.c.project_id == project_id,
            documents.c.knowledge_base_id.in_(kbs),
            documents.c.metadata.has_key(wanted.c.key),
            visible,
        )
        .exists()
    )
    in_chunks = (
        select(chunks.c.id)
        .where(
            chunks.c.project_id == project_id,
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
    session: AsyncSession, project_id: uuid.UUID, knowledge_base_ids: Sequence[uuid.UUID]
) -> bool:
    """Whether any chunk of these knowledge bases has metadata of its own (a partial index)."""
    found = await session.scalar(
        select(
            exists().where(
                chunks.c.project_id == project_id,
                chunks.c.knowledge_base_id.in_(list(knowledge_base_ids)),
                chunks.c.own_metadata,
            )
        )
    )
    return bool(found)


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
        source_id=r["source_id"],
        source_record_id=r["source_record_id"],
    )


def _float(value: Any) -> float | None:
    return None if value is None else float(value)
