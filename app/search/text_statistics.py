"""Which query terms define full-text candidates, given how common each is in a knowledge base.

Postgres has no top-k pruning for full text: every chunk that matches the tsquery is scored,
at about 20 us each. A natural-language question ORs its lexemes, and lexemes like `increas`
or `express` hold in one chunk out of ten, so the matched set, and the latency, grow with the
knowledge base. We bound it: rarest first, a query's lexemes define the candidate set while
their summed document frequencies stay within `MATCH_BUDGET` chunks, and beyond it while they
may hold fewer chunks than the search wants; the more common rest only score (as in Lucene's
CommonTermsQuery), and chunks holding all of them (two or more) match too. A knowledge base
of at most `MATCH_BUDGET` chunks is never pruned: its results are exactly those of scoring
every chunk that holds any term. Nor is a search with a filter (or document permissions): the
budget would be spent on chunks the filter then drops.

Document frequencies come from `text_statistics`, one row per knowledge base with the count of
every lexeme held by at least 0.1 % of its chunks, computed by a background job from the
chunks' tsvectors (about 0.4 s per 100,000 chunks) and refreshed when the chunk count has moved
by more than `STALE_FRACTION`. Staleness costs speed, not results: a lexeme with no count
always defines candidates, and its frequency is counted exactly on the matched set.

The counts cover every chunk, readable or not. The lexemes themselves are words of the
documents, so `describe` lists them only to callers who can read every document of the
knowledge base (docs/tenancy.md, "Document access lists").
"""

from __future__ import annotations

import logging
import math
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, delete, exists, false, func, not_, select, text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.engine import Database, writer_of
from app.jobs import repository as jobs_repository
from app.jobs.worker import record_failure
from app.knowledge_bases.repository import chunk_counts
from app.models import Document, Job, KnowledgeBase, TextStatistics
from app.search.plans import quote_lexeme
from app.search.schemas import CommonLexeme, TextStatisticsRead

MATCH_BUDGET = 1_000
# Lexemes counted: those in at least this fraction of the chunks (rarer ones always define).
COUNTED_FRACTION = 0.001
STALE_FRACTION = 0.2
JOB_KIND = "text_stats"
RETRY_DELAY_S = 30.0

logger = logging.getLogger(__name__)

WITHHELD_FOR_ACCESS = (
    "Some documents of this knowledge base are hidden from this caller by their access lists, "
    "and the counted lexemes may include their words; the counts remain."
)


COUNTED_LEXEMES = text(
    "SELECT lexeme, count(*) FROM chunks, unnest(tsvector_to_array(tsv)) AS lexeme "
    "WHERE knowledge_base_id = :kb GROUP BY lexeme HAVING count(*) >= :min_df"
)


@dataclass(frozen=True, slots=True)
class TermStatistics:
    """Document frequencies (at `chunk_count`) of the lexemes held by `min_df` chunks or more."""

    chunk_count: int
    min_df: int
    frequencies: Mapping[str, int]

    def split(
        self, lexemes: Sequence[str], chunk_count: int, wanted: int
    ) -> tuple[list[str], dict[str, int]]:
        """The lexemes that define candidates, and the common ones with their frequency
        scaled to today's chunk count.

        Rarest first, a lexeme defines while the defining lexemes' summed frequencies stay
        within the budget, or while they may still hold fewer than `wanted` chunks (a lexeme
        without a count costs `min_df` against the budget and may hold a single chunk).
        """
        scale = chunk_count / self.chunk_count if self.chunk_count else 1.0
        known = {
            lexeme: max(1, round(self.frequencies[lexeme] * scale))
            for lexeme in lexemes
            if lexeme in self.frequencies
        }
        defining = [lexeme for lexeme in lexemes if lexeme not in known]
        spent, surely = len(defining) * self.min_df, len(defining)
        common: dict[str, int] = {}
        for lexeme in sorted(known, key=lambda lexeme: (known[lexeme], lexeme)):
            if surely < wanted or spent + known[lexeme] <= MATCH_BUDGET:
                defining.append(lexeme)
                spent += known[lexeme]
                surely += known[lexeme]
            else:
                common[lexeme] = known[lexeme]
        return defining, common


def is_stale(stats: TermStatistics | None, chunk_count: int) -> bool:
    if stats is None:
        return chunk_count > MATCH_BUDGET
    return abs(chunk_count - stats.chunk_count) > STALE_FRACTION * stats.chunk_count


async def load(
    session: AsyncSession, knowledge_base_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, TermStatistics]:
    rows = await session.execute(
        select(
            TextStatistics.knowledge_base_id,
            TextStatistics.chunk_count,
            TextStatistics.min_df,
            TextStatistics.frequencies,
        ).where(TextStatistics.knowledge_base_id.in_(list(knowledge_base_ids)))
    )
    return {kb_id: TermStatistics(count, min_df, found) for kb_id, count, min_df, found in rows}


async def hides_documents(
    session: AsyncSession, kb: KnowledgeBase, visible: ColumnElement[bool]
) -> bool:
    """Whether some document of the knowledge base is unreadable under `visible`."""
    # coalesce: a NULL access test is not a readable document (acl.py never yields one today).
    hidden = not_(func.coalesce(visible, false()))
    found = await session.scalar(
        select(exists().where(Document.knowledge_base_id == kb.id, hidden))
    )
    return bool(found)


async def describe(
    session: AsyncSession, kb: KnowledgeBase, *, visible: ColumnElement[bool]
) -> TextStatisticsRead:
    """The knowledge base's statistics as the API shows them to a caller reading `visible`."""
    chunk_count = (await chunk_counts(session, [kb.id]))[kb.id]
    row = await session.get(TextStatistics, kb.id)
    stats = None if row is None else TermStatistics(row.chunk_count, row.min_df, row.frequencies)
    common = sorted((row.frequencies if row else {}).items(), key=lambda item: (-item[1], item[0]))
    # Lexemes are words of the documents: one held only by a hidden document would leak it.
    withheld = bool(common) and await hides_documents(session, kb, visible)
    return TextStatisticsRead(
        match_budget=MATCH_BUDGET,
        chunk_count=chunk_count,
        pruning=stats is not None and chunk_count > MATCH_BUDGET,
        stale=is_stale(stats, chunk_count),
        counted_chunks=None if row is None else row.chunk_count,
        min_df=None if row is None else row.min_df,
        lexemes=len(common),
        refreshed_at=None if row is None else row.refreshed_at,
        most_common=[]
        if withheld
        else [CommonLexeme(lexeme=lexeme, chunks=df) for lexeme, df in common[:20]],
        most_common_withheld=WITHHELD_FOR_ACCESS if withheld else None,
    )


async def refresh(
    session: AsyncSession, *, knowledge_base_id: uuid.UUID, project_id: uuid.UUID
) -> TermStatistics | None:
    """Recount the knowledge base's lexemes (None: too small to need them)."""
    chunk_count = (await chunk_counts(session, [knowledge_base_id]))[knowledge_base_id]
    if chunk_count <= MATCH_BUDGET:
        await session.execute(
            delete(TextStatistics).where(TextStatistics.knowledge_base_id == knowledge_base_id)
        )
        return None
    min_df = max(2, math.ceil(COUNTED_FRACTION * chunk_count))
    rows = await session.execute(COUNTED_LEXEMES, {"kb": knowledge_base_id, "min_df": min_df})
    frequencies = {lexeme: int(df) for lexeme, df in rows.all()}
    values = {"chunk_count": chunk_count, "min_df": min_df, "frequencies": frequencies}
    statement = insert(TextStatistics).values(
        knowledge_base_id=knowledge_base_id, project_id=project_id, **values
    )
    await session.execute(
        statement.on_conflict_do_update(
            index_elements=[TextStatistics.knowledge_base_id, TextStatistics.project_id],
            set_={**values, "refreshed_at": statement.excluded.refreshed_at},
        )
    )
    return TermStatistics(chunk_count, min_df, frequencies)


async def request_refresh(
    session: AsyncSession, *, knowledge_base_id: uuid.UUID, project_id: uuid.UUID
) -> None:
    """Queue a refresh in the session's transaction, or, when that one only reads (a search
    on a read replica), in a transaction of its own on the primary."""
    primary = writer_of(session)
    if primary is None:
        await schedule_refresh(session, knowledge_base_id=knowledge_base_id, project_id=project_id)
        return
    async with primary.transaction(
        project_id=project_id, knowledge_bases=[knowledge_base_id]
    ) as writable:
        await schedule_refresh(writable, knowledge_base_id=knowledge_base_id, project_id=project_id)


async def schedule_refresh(
    session: AsyncSession, *, knowledge_base_id: uuid.UUID, project_id: uuid.UUID
) -> Job:
    """Queue a refresh unless one is already queued or running; returns that job."""
    pending = await session.scalar(
        select(Job).where(
            Job.knowledge_base_id == knowledge_base_id,
            Job.kind == JOB_KIND,
            Job.status.in_(("queued", "running")),
        )
    )
    if pending is not None:
        return pending
    job = jobs_repository.new_job(
        project_id=project_id,
        knowledge_base_id=knowledge_base_id,
        document_id=None,
        kind=JOB_KIND,
        payload={},
        max_attempts=3,
    )
    session.add(job)
    await session.flush()
    return job


@dataclass
class Refresher:
    """The `text_stats` job: recount in one transaction, finished in the same one; a failure
    is recorded on the job and retried later, then the job fails (search works without)."""

    database: Database

    async def handle(self, job: Job) -> None:
        try:
            async with self.database.transaction() as session:
                await refresh(
                    session, knowledge_base_id=job.knowledge_base_id, project_id=job.project_id
                )
                await jobs_repository.finish(session, job.id, status="succeeded")
        except Exception as exc:
            logger.exception("text statistics of knowledge base %s", job.knowledge_base_id)
            await record_failure(self.database, job, exc, delay_s=RETRY_DELAY_S * job.attempts)


def match_query(defining: Sequence[str], common: Sequence[str]) -> str | None:
    """The tsquery that defines candidates: any defining lexeme, or all the common ones (two or
    more: one alone would match as many chunks as before)."""
    if not defining:
        return None
    any_defining = " | ".join(map(quote_lexeme, defining))
    if len(common) < 2:
        return any_defining
    return f"{any_defining} | ({' & '.join(map(quote_lexeme, common))})"
