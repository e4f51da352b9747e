"""Rules of search: which sides run, the query vector, fusion, rerank, MMR and context."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Sequence

from sqlalchemy import ColumnElement, and_, true
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import True_

from app.chunks.embedding import EmbedderFactory
from app.kit.errors import NotFound, ValidationFailed
from app.kit.filters import compile_filter, metadata_keys
from app.knowledge_bases import repository as knowledge_bases
from app.models import KnowledgeBase
from app.search import (
    document_choice,
    fields,
    plan_reuse,
    plans,
    repository,
    text_statistics,
)
from app.search.hits import build_hit, contexts_of
from app.search.mmr import mmr_order
from app.search.query_vectors import query_vector
from app.search.rerank import Reranker
from app.search.schemas import (
    CandidateCounts,
    Fusion,
    Include,
    MultiSearchRequest,
    SearchMode,
    SearchOptions,
    SearchResponse,
    TextMatch,
)
from app.search.text_statistics import TermStatistics

# Queries of at most this many words also get a trigram fallback (typos, partial words) when
# full text finds fewer hits than asked for.
TRIGRAM_MAX_WORDS = 3
# Candidates per side unless the request says: at least a page of them.
DEFAULT_CANDIDATES = 100
MIN_EF_SEARCH = 40
MAX_EF_SEARCH = 1000
# A knowledge base's chunk count (N in inverse document frequency) and common-term statistics
# are cached this long: IDF moves with log(N), so a slightly stale N changes no ranking
# noticeably, and stale statistics only cost speed (app/search/text_statistics.py).
TEXT_STATISTICS_TTL_S = 60.0
_text_statistics: dict[uuid.UUID, tuple[int, TermStatistics | None, float]] = {}


def ef_search_for(candidates: int, requested: int | None) -> int:
    """HNSW breadth: what was asked for, else the candidate depth, within [40, 1000].

    The scan must return `candidates` rows, and with the iterative scan on it goes on past
    ef_search when it has to; measured over 100,000 chunks, recall@10 is 1.000 at both 100 and
    200 (0.993 with a 2 % filter) and 100 costs two thirds of the time (docs/benchmarks.md)."""
    if requested is not None:
        return requested
    return min(MAX_EF_SEARCH, max(MIN_EF_SEARCH, candidates))


async def resolve_knowledge_bases(
    session: AsyncSession, *, project_id: uuid.UUID, refs: Sequence[str]
) -> list[KnowledgeBase]:
    """The named knowledge bases (404 for an unknown one); they must share an embedding model."""
    found: dict[uuid.UUID, KnowledgeBase] = {}
    for ref in refs:
        kb = await knowledge_bases.get_by_ref(session, project_id=project_id, ref=ref)
        if kb is None:
            raise NotFound(f"No knowledge base {ref!r}.")
        found.setdefault(kb.id, kb)
    kbs = list(found.values())
    models = {_model(kb) for kb in kbs}
    if len(models) > 1:
        described = ", ".join(f"{kb.name}: {'/'.join(map(str, _model(kb)))}" for kb in kbs)
        raise ValidationFailed(
            "Knowledge bases searched together must use the same embedding model "
            f"(provider/model/dimensions/variant); got {described}."
        )
    return kbs


def _model(kb: KnowledgeBase) -> tuple[str, str, int, str]:
    return (
        kb.embedding_provider,
        kb.embedding_model,
        kb.embedding_dimensions,
        kb.embedding_variant,
    )


def trigram_words(parsed: plans.TextQuery) -> list[str]:
    """What the trigram fallback looks for: the query's lexemes, stop words left out.

    The fallback is for misspelled or unindexed content words; with "There is an" as the
    needle, every chunk shares its trigrams and the fallback took 4 s over 100,000 chunks
    (bench data); a query of stop words only has nothing to look for.
    """
    return list(dict.fromkeys(parsed.lexemes))[:TRIGRAM_MAX_WORDS]


async def search_many(
    session: AsyncSession,
    *,
    project_id: uuid.UUID,
    data: MultiSearchRequest,
    embedders: EmbedderFactory,
    reranker: Reranker | None,
    visible: ColumnElement[bool] | None = None,
) -> SearchResponse:
    kbs = await resolve_knowledge_bases(session, project_id=project_id, refs=data.knowledge_bases)
    return await search(session, kbs, data, embedders=embedders, reranker=reranker, visible=visible)


def check_reranker(options: SearchOptions, reranker: Reranker | None) -> None:
    if options.rerank and reranker is None:
        raise ValidationFailed(
            "No reranker is configured on this server (set ARBOR_RERANK_URL); search without "
            "`rerank`."
        )


def check_options(options: SearchOptions, *, reranker: Reranker | None) -> None:
    """The request errors `search` raises before any SQL (a bad filter, rerank without a
    reranker), for callers that must answer them before starting a streamed response."""
    compile_filter(options.filter, fields.SEARCH_FIELDS)
    check_reranker(options, reranker)


async def search(
    session: AsyncSession,
    kbs: Sequence[KnowledgeBase],
    options: SearchOptions,
    *,
    embedders: EmbedderFactory,
    reranker: Reranker | None,
    visible: ColumnElement[bool] | None = None,
) -> SearchResponse:
    """Search one or more knowledge bases (same embedding model) and shape the response.

    `visible` (app/auth/acl.py) drops documents the caller may not read, inside every
    candidate query, before its LIMIT.
    """
    condition = compile_filter(options.filter, fields.SEARCH_FIELDS)
    if visible is not None:
        condition = and_(condition, visible)
    first = kbs[0]
    query = options.query.strip() if options.query and options.query.strip() else None
    mode, degraded = options.mode, None
    check_reranker(options, reranker)
    if options.rerank and query is None:
        raise ValidationFailed("`rerank` needs a `query` text to score passages against.")
    if mode is SearchMode.TEXT and query is None:
        raise ValidationFailed("Text search needs a `query`.")

    vector = _check_dimensions(options.vector, first) if options.vector is not None else None
    if vector is None and mode is not SearchMode.TEXT:
        assert query is not None
        vector, degraded = await query_vector(
            embedders, first, query, required=mode is SearchMode.VECTOR
        )
        if vector is None:
            mode = SearchMode.TEXT
    if mode is SearchMode.HYBRID and query is None:
        mode, degraded = SearchMode.VECTOR, "no query text"

    # Pages come from one pool whatever the offset: each side's best `depth`, or the best
    # `pool` fused hits that rerank or MMR reorder. A pool that grew with the offset changed
    # the min-max normalisation, the pruning and the fallback from page to page, so
    # consecutive pages repeated and skipped hits. A page shorter than top_k is the last.
    depth = options.candidates or max(DEFAULT_CANDIDATES, options.top_k)
    pool = max(options.rerank_depth, options.top_k)
    reuse_plan = plan_reuse.recent.note([kb.id for kb in kbs])
    prepared = await repository.prepare(
        session,
        ef_search=ef_search_for(depth, options.ef_search),
        query=query,
        languages=[kb.text_search_language for kb in kbs],
        websearch=options.text_match is TextMatch.WEBSEARCH,
        project_id=first.project_id,
        knowledge_base_ids=[kb.id for kb in kbs],
        reuse_plan=reuse_plan,
    )
    parsed = prepared.queries
    choice = await document_choice.choose(
        session, kbs, options, visible, total_chunks=lambda: _chunk_total(session, kbs)
    )
    # Neither a filter nor a visibility limit that the skipped documents do not settle:
    # nothing to ask of a candidate's document but its status, and that only where a failed
    # document holds chunks (and not even that when they are skipped too).
    unconditioned = options.filter is None and (
        visible is None or isinstance(visible, True_) or choice.settled
    )
    use_text = mode is not SearchMode.VECTOR
    statistics = await _text_statistics_of(session, kbs) if use_text and query is not None else {}
    pooled = options.rerank or options.mmr is not None
    wanted = options.offset + options.top_k
    # The fallback is for plain short queries; websearch syntax means exactly what it says.
    short_query = (
        query is not None
        and options.text_match is TextMatch.ANY
        and len(re.findall(r"\w+", query)) <= TRIGRAM_MAX_WORDS
    )
    plan = plans.Plan(
        project_id=first.project_id,
        targets=[
            _target(
                kb.id,
                parsed[kb.text_search_language],
                *statistics.get(kb.id, (0, None)),
                # A filter drops matched chunks after the budget is spent: no pruning then.
                # Skipped documents may hold matches: the budget counts their chunks extra.
                prune=unconditioned,
                wanted=depth + choice.excluded_chunks,
            )
            for kb in kbs
        ],
        dimensions=first.embedding_dimensions,
        vector=vector if mode is not SearchMode.TEXT else None,
        use_text=use_text,
        trigram_words=trigram_words(parsed[first.text_search_language])
        if use_text and short_query
        else [],
        condition=condition,
        candidates=depth,
        hybrid=mode is SearchMode.HYBRID,
        rrf=options.fusion is Fusion.RRF,
        vector_weight=options.vector_weight,
        threshold=None if options.rerank else options.score_threshold,
        limit=pool if pooled else options.top_k,
        offset=0 if pooled else options.offset,
        with_vectors=Include.VECTORS in options.include or options.mmr is not None,
        check_documents=(not unconditioned or prepared.failed_with_chunks) and not choice.settled,
        documents=choice.documents,
        excluded_documents=choice.excluded,
        reuse_plan=reuse_plan,
    )
    result = await repository.search(session, plan)
    rows = result.rows
    if options.rerank:
        assert reranker is not None
        assert query is not None
        scores = await reranker.rerank(query, [row.text for row in rows])
        for row, score in zip(rows, scores, strict=True):
            row.extra["fused_score"] = row.score
            row.extra["rerank_score"] = score
            row.score = score
        rows.sort(key=lambda row: -row.score)
        if options.score_threshold is not None:
            rows = [row for row in rows if row.score >= options.score_threshold]
    if options.mmr is not None:
        order = mmr_order(
            [row.score for row in rows],
            [row.embedding for row in rows],
            lambda_=options.mmr.lambda_,
            count=wanted,
        )
        rows = [rows[i] for i in order]
        for rank, row in enumerate(rows, start=1):
            row.extra["mmr_rank"] = rank
    if pooled:
        rows = rows[options.offset : wanted]

    contexts = (
        await contexts_of(
            session,
            first.project_id,
            [((row.knowledge_base_id, row.chunk_id), row.node_path) for row in rows],
        )
        if Include.CONTEXT in options.include
        else {}
    )
    hits = [
        build_hit(row, options, mode, contexts.get((row.knowledge_base_id, row.chunk_id)))
        for row in rows
    ]
    warnings = [] if hits else await _filter_warnings(session, kbs, options, visible)
    return SearchResponse(
        query=options.query,
        mode=mode,
        requested_mode=options.mode,
        degraded=degraded,
        fusion=options.fusion if mode is SearchMode.HYBRID else None,
        vector_weight=options.vector_weight if mode is SearchMode.HYBRID else None,
        text_query=next((t.tsquery for t in plan.targets if t.tsquery), None) if use_text else None,
        text_queries={t.knowledge_base_id: t.tsquery for t in plan.targets} if use_text else {},
        knowledge_bases=[kb.id for kb in kbs],
        top_k=options.top_k,
        offset=options.offset,
        candidates=CandidateCounts(
            vector=result.vector_count, text=result.text_count, trigram=result.trigram_count
        ),
        reranked=options.rerank,
        warnings=warnings,
        hits=hits,
    )


async def _filter_warnings(
    session: AsyncSession,
    kbs: Sequence[KnowledgeBase],
    options: SearchOptions,
    visible: ColumnElement[bool] | None,
) -> list[str]:
    """For a filtered search that found nothing: the metadata keys of the filter that nothing
    readable in these knowledge bases has (a typo's usual look), so that an empty result says
    why instead of looking like a miss."""
    keys = metadata_keys(options.filter) if options.filter is not None else []
    if not keys:
        return []
    absent = await repository.absent_metadata_keys(
        session,
        kbs[0].project_id,
        [kb.id for kb in kbs],
        keys,
        true() if visible is None else visible,
    )
    return [
        f"No document or chunk you can read in the searched knowledge bases has the metadata "
        f"key {key!r} (filter `metadata.{key}`)."
        for key in absent
    ]


async def _chunk_total(session: AsyncSession, kbs: Sequence[KnowledgeBase]) -> int:
    """Chunks of these knowledge bases, as text scoring counts them (cached per process,
    refreshed each minute)."""
    return sum(count for count, _ in (await _text_statistics_of(session, kbs)).values())


async def _text_statistics_of(
    session: AsyncSession, kbs: Sequence[KnowledgeBase]
) -> dict[uuid.UUID, tuple[int, TermStatistics | None]]:
    """Chunk count and common-term statistics per knowledge base; queues a refresh of stale
    statistics (checked once per TTL per process)."""
    now = time.monotonic()
    expired = [kb for kb in kbs if _text_statistics.get(kb.id, (0, None, 0.0))[2] < now]
    if expired:
        counts = await knowledge_bases.chunk_counts(session, [kb.id for kb in expired])
        stored = await text_statistics.load(session, [kb.id for kb in expired])
        for kb in expired:
            count, stats = counts[kb.id], stored.get(kb.id)
            if text_statistics.is_stale(stats, count):
                await text_statistics.request_refresh(
                    session, knowledge_base_id=kb.id, project_id=kb.project_id
                )
            _text_statistics[kb.id] = (count, stats, now + TEXT_STATISTICS_TTL_S)
    return {kb.id: _text_statistics[kb.id][:2] for kb in kbs}


def _target(
    kb_id: uuid.UUID,
    parsed: plans.TextQuery,
    count: int,
    stats: TermStatistics | None,
    *,
    prune: bool,
    wanted: int,
) -> plans.Target:
    """The text side of one knowledge base: common lexemes score but do not define matches."""
    if stats is None or not prune or parsed.websearch or parsed.tsquery is None:
        return plans.Target(kb_id, parsed.tsquery, terms=parsed.terms, chunk_count=count)
    defining, common = stats.split(parsed.lexemes, count, wanted)
    if not common:
        return plans.Target(kb_id, parsed.tsquery, terms=parsed.terms, chunk_count=count)
    return plans.Target(
        kb_id,
        text_statistics.match_query(defining, list(common)),
        terms=parsed.terms,
        chunk_count=count,
        common={term: df for term, df in common.items() if term in parsed.terms},
    )


def _check_dimensions(vector: list[float], kb: KnowledgeBase) -> list[float]:
    if len(vector) != kb.embedding_dimensions:
        raise ValidationFailed(
            f"The query vector has {len(vector)} dimensions; knowledge base {kb.name!r} "
            f"expects {kb.embedding_dimensions}.",
            extra={
                "errors": [
                    {
                        "loc": ["body", "vector"],
                        "msg": f"expected {kb.embedding_dimensions} dimensions, got {len(vector)}",
                        "type": "dimension_mismatch",
                    }
                ]
            },
        )
    return vector
