"""How often a search statement names `chunks`: for each mention the planner reads the partial
HNSW indexes of every knowledge base the searched one's partition holds (docs/scaling.md), so a
mention added to the statement costs every search more as the database grows."""

from __future__ import annotations

import re

import pytest
from sqlalchemy.dialects import postgresql

from app.search import hybrid
from app.search.plans import Plan
from tests.search.test_statement_cache import one_target, plan, two_targets

DIALECT = postgresql.asyncpg.dialect()  # type: ignore[attr-defined]
MENTION = re.compile(r"\b(?:FROM|JOIN) chunks\b")


def mentions(searched: Plan) -> int:
    return len(MENTION.findall(str(hybrid.statement(searched).compile(dialect=DIALECT))))


@pytest.mark.parametrize(
    ("searched", "expected"),
    [
        # The vector side, the text matches, the page of hits: each side carries the other
        # side's score of its candidates instead of reading them again by id.
        (plan(one_target("root")), 3),
        (plan(one_target("root"), rrf=True), 3),
        (plan(one_target("root"), use_text=False, hybrid=False), 2),
        (plan(one_target("root"), vector=None, hybrid=False), 2),
        # Two knowledge bases: their own vector and text sides, one page.
        (plan(two_targets("root")), 5),
        # The trigram fallback: its candidates, and one check for every word that no chunk
        # holds it (not one per word).
        (plan(one_target("root"), trigram_words=["root", "bark", "sap"]), 5),
    ],
    ids=["hybrid", "hybrid rrf", "vector", "text", "two knowledge bases", "trigram fallback"],
)
def test_a_search_names_chunks_once_per_side_and_once_for_its_page(
    searched: Plan, expected: int
) -> None:
    assert mentions(searched) == expected


def test_weighted_fusion_completes_scores_from_the_candidates_it_read() -> None:
    sql = str(hybrid.statement(plan(one_target("root"))).compile(dialect=DIALECT))
    # No join back to chunks by id for the other side's score of a candidate.
    assert "completion_0" not in sql
    assert "vector_completion" not in sql
    assert "text_side.distance" in sql
    assert "vector_side.hits" in sql
