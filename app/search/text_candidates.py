"""The text side of the fused statement: the full-text candidates (app/search/candidates.py)
and, when they are too few, the trigram fallback for misspelled words, ranked after them."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import (
    CTE,
    Float,
    Integer,
    String,
    Text,
    and_,
    bindparam,
    cast,
    column,
    func,
    literal,
    select,
    union_all,
)
from sqlalchemy.dialects.postgresql import ARRAY, TSQUERY
from sqlalchemy.sql.elements import ColumnElement

from app.search.candidates import (
    carried_distance,
    carries_text,
    chunk_key,
    chunks,
    constant,
    fulltext_cte,
    knowledge_base_constant,
    scope,
    tsquery_parameter,
)
from app.search.plans import Plan, Target, quote_lexeme

TRIGRAM_THRESHOLD = 0.5


def trigram_cte(plan: Plan, fulltext: CTE) -> CTE:
    """Chunks whose words are like the query's words: the mean of each word's similarity
    (`word_similarity`) passes the threshold. One needle of all the words
    matched only where they stood side by side: two misspelled words apart in a chunk found
    nothing. A chunk is compared only if it holds a lexeme that begins as a word does
    (`prefix_query`): the trigram index passed every chunk sharing a few of the word's
    trigrams, each then a `word_similarity` over its whole text (for "mevacor" 1,925 of
    NFCorpus's 7,319 chunks, 0.6 s; with the prefix, 2)."""
    assert plan.trigram_words
    words = [bindparam(f"trigram_{i}", word, String) for i, word in enumerate(plan.trigram_words)]
    similarity = sum(
        (func.word_similarity(word, chunks.c.text, type_=Float) for word in words[1:]),
        func.word_similarity(words[0], chunks.c.text, type_=Float),
    ) / float(len(words))
    # One GIN probe of the tsvectors finds the chunks with a lexeme that begins as a word does;
    # only those are compared with the words. (ANDed with pg_trgm's `<%`, the planner took the
    # trigram index alone, expecting one row, and rechecked 1,925 chunks for "mevacor".)
    prefixes = tsquery_parameter("trigram_prefixes", prefixes_query(plan.trigram_words))
    like_all = and_(chunks.c.tsv.op("@@")(prefixes), similarity >= TRIGRAM_THRESHOLD)
    # Whether the fallback runs must not depend on the offset: every page sees one pool. And
    # full text that filled its candidates found enough: the fallback would only re-find the
    # matches cut off by that limit, level with the weakest kept one.
    wanted = min(plan.limit, plan.candidates)
    sides = []
    for index, target in enumerate(plan.targets):
        side = (
            scope(target, plan, index)
            .add_columns(
                *chunk_key(),
                similarity.label("score"),
                *carried_distance(plan),
            )
            .where(
                like_all,
                # Not found by full text already, in this knowledge base (an id is unique
                # within one only).
                chunks.c.id.not_in(
                    select(fulltext.c.id).where(
                        fulltext.c.knowledge_base_id == knowledge_base_constant(plan, target, index)
                    )
                ),
                # Runs only when full text found too little (a one-time filter) ...
                select(func.count()).select_from(fulltext).scalar_subquery() < wanted,
                # ... and a word of the query is in no chunk the search may see (one GIN probe
                # each). A word that is there was matched by full text; looking for it by
                # trigrams rechecks every chunk sharing a few of its trigrams ("coma": 3,721
                # of 7,319 NFCorpus chunks, 2.8 s) to add chunks that merely look like it.
                unknown_word(target, plan, index),
            )
            .order_by(similarity.desc())
            .limit(constant(plan.candidates))
            .subquery(f"trigram_{index}")
        )
        sides.append(select(*side.c))
    merged = sides[0].subquery() if len(sides) == 1 else union_all(*sides).subquery()
    return (
        select(*merged.c)
        .order_by(merged.c.score.desc(), merged.c.id, merged.c.knowledge_base_id)
        .limit(constant(plan.candidates))
        .cte("trigram_side")
    )


TYPO_FREE_PREFIX = 4


def prefix_query(lexeme: str) -> str:
    """The tsquery of the lexemes that begin as `lexeme` does: its first four letters (three
    for a lexeme of four or fewer, all of a shorter one). Typos past them are found, as in
    Lucene's fuzzy queries with a prefix length; one in the first letters is not."""
    keep = TYPO_FREE_PREFIX if len(lexeme) > TYPO_FREE_PREFIX else min(3, len(lexeme))
    return quote_lexeme(lexeme[:keep]) + ":*"


def prefixes_query(lexemes: Sequence[str]) -> str:
    """The tsquery of the lexemes that begin as any of `lexemes` does."""
    return " | ".join(prefix_query(lexeme) for lexeme in lexemes)


def unknown_word(target: Target, plan: Plan, index: int) -> ColumnElement[bool]:
    """Whether one of the query's lexemes holds in no chunk of the scope (as the caller sees
    it: a word of a hidden document still counts as unknown, so the fallback's results do not
    tell whether such a word exists). One subquery asks for every word in turn (one GIN probe
    each), so the statement names `chunks` once for them all, not once per word."""
    words = (
        func.unnest(
            cast(bindparam("trigram_lexemes", trigram_lexemes(plan), ARRAY(Text)), ARRAY(TSQUERY))
        )
        .table_valued(column("word", TSQUERY))
        .render_derived(name=f"trigram_words_{index}")
    )
    table = chunks.alias(f"known_{index}")
    held = (
        scope(target, plan, index, table)
        .where(table.c.tsv.op("@@")(words.c.word))
        .add_columns(literal(1))
        .exists()
    )
    known = select(func.count()).select_from(words).where(held).scalar_subquery()
    return known < len(plan.trigram_words)


def trigram_lexemes(plan: Plan) -> list[str]:
    """The trigram fallback's words as tsquery input, one each."""
    return [quote_lexeme(word) for word in plan.trigram_words]


def text_side(plan: Plan, vector: CTE | None) -> tuple[CTE, CTE, CTE | None, CTE | None]:
    fulltext, completion = fulltext_cte(plan, vector)
    trigram = trigram_cte(plan, fulltext) if plan.trigram_words else None
    carry = carries_text(plan)
    parts = [
        select(
            fulltext.c.id,
            fulltext.c.knowledge_base_id,
            fulltext.c.score,
            literal(0, Integer).label("kind"),
            *([fulltext.c.distance] if carry else []),
        )
    ]
    if trigram is not None:
        # Trigram hits rank after every full-text hit: scaled below the weakest of them.
        floor = func.coalesce(select(func.min(fulltext.c.score)).scalar_subquery(), 1.0)
        parts.append(
            select(
                trigram.c.id,
                trigram.c.knowledge_base_id,
                (trigram.c.score * floor).label("score"),
                literal(1, Integer),
                *([trigram.c.distance] if carry else []),
            )
        )
    merged = parts[0].subquery() if len(parts) == 1 else union_all(*parts).subquery()
    side = select(
        merged.c.id,
        merged.c.knowledge_base_id,
        merged.c.score,
        merged.c.kind,
        func.row_number()
        .over(
            order_by=(merged.c.kind, merged.c.score.desc(), merged.c.id, merged.c.knowledge_base_id)
        )
        .label("rank"),
        func.min(merged.c.score).over().label("low"),
        func.max(merged.c.score).over().label("high"),
        *([merged.c.distance] if carry else []),
    ).cte("text_side")
    return side, fulltext, trigram, completion
