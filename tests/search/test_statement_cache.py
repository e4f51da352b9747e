"""Search statements are built once per shape and rerun with each search's own values.

A value that `statement` binds but `bound_values` does not supply would leak from the search
that built the cached statement into every later one of its shape: these tests compare a
cached statement run with another plan's values against that plan's own statement.
"""

from __future__ import annotations

import itertools
import uuid
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import and_, true
from sqlalchemy.dialects import postgresql

from app.auth.acl import visible_documents_clause
from app.documents import repository as documents_repository
from app.kit.filters import compile_filter
from app.kit.statements import StatementCache
from app.search import hybrid
from app.search import repository as search_repository
from app.search.fields import SEARCH_FIELDS
from app.search.plans import Plan, Target

DIALECT = postgresql.asyncpg.dialect()  # type: ignore[attr-defined]
# Every plan gets its own chunk counts and term frequencies.
COUNTS = itertools.count(1000, 17)


def target(
    tsquery: str | None, terms: list[str], *, common: dict[str, int] | None = None
) -> Target:
    return Target(
        knowledge_base_id=uuid.uuid4(),
        tsquery=tsquery,
        terms=terms,
        chunk_count=next(COUNTS),
        common=common or {},
    )


def plan(targets: list[Target], **changes: Any) -> Plan:
    base = Plan(
        project_id=uuid.uuid4(),
        targets=targets,
        dimensions=3,
        vector=[0.1, 0.2, 0.3],
        use_text=True,
        trigram_words=[],
        condition=true(),
        candidates=100,
        hybrid=True,
        rrf=False,
        vector_weight=0.5,
        threshold=None,
        limit=10,
        offset=0,
        with_vectors=False,
    )
    return replace(base, **changes)


def one_target(query: str) -> list[Target]:
    return [target(f"'{query}' | 'tree'", [query, "tree"], common={"tree": next(COUNTS)})]


def two_targets(query: str) -> list[Target]:
    return [target(f"'{query}'", [query]), target(f"'{query}'", [query])]


SHAPES: dict[str, tuple[Plan, Plan]] = {
    "hybrid, weighted": (
        plan(one_target("root")),
        plan(one_target("leaf"), vector=[0.3, 0.2, 0.1]),
    ),
    "hybrid, rrf": (plan(one_target("root"), rrf=True), plan(one_target("bark"), rrf=True)),
    "hybrid, trigram fallback": (
        plan(one_target("root"), trigram_words=["root"]),
        plan(one_target("sap"), trigram_words=["sap"]),
    ),
    "vector only": (
        plan(one_target("root"), use_text=False, hybrid=False),
        plan(one_target("twig"), use_text=False, hybrid=False, vector=[0.9, 0.1, 0.0]),
    ),
    "text only": (
        plan(one_target("root"), vector=None, hybrid=False),
        plan(one_target("moss"), vector=None, hybrid=False),
    ),
    "two knowledge bases": (plan(two_targets("root")), plan(two_targets("cone"))),
    "with threshold and vectors": (
        plan(one_target("root"), threshold=0.2, with_vectors=True),
        plan(one_target("seed"), threshold=0.2, with_vectors=True),
    ),
}


def filtered(spec: dict[str, Any], principals: set[str] | None = None) -> Any:
    condition = compile_filter(spec, SEARCH_FIELDS)
    if principals is not None:
        condition = and_(condition, visible_documents_clause(frozenset(principals)))
    return condition


SHAPES |= {
    "metadata filter": (
        plan(one_target("root"), condition=filtered({"metadata.group": 7})),
        plan(one_target("moss"), condition=filtered({"metadata.group": 9})),
    ),
    "list filter of another length": (
        plan(one_target("root"), condition=filtered({"doc_title": {"$in": ["a", "b"]}})),
        plan(one_target("bark"), condition=filtered({"doc_title": {"$in": ["c", "d", "e"]}})),
    ),
    "filter and document visibility": (
        plan(one_target("root"), condition=filtered({"chunk_index": {"$gte": 2}}, {"team-a"})),
        plan(
            one_target("leaf"),
            condition=filtered({"chunk_index": {"$gte": 5}}, {"team-b", "team-c"}),
        ),
    ),
    "documents chosen first": (
        plan(
            one_target("root"),
            condition=filtered({"doc_id": str(uuid.uuid4())}),
            documents=[uuid.uuid4()],
        ),
        plan(
            one_target("sap"),
            condition=filtered({"doc_id": str(uuid.uuid4())}),
            documents=[uuid.uuid4(), uuid.uuid4()],
        ),
    ),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_a_cached_statement_runs_with_the_later_plans_values(name: str) -> None:
    first, later = SHAPES[name]
    hybrid._statements.clear()
    cached, _ = hybrid.prepared(first)
    reused, values = hybrid.prepared(later)
    assert reused is cached
    compiled = cached.compile(dialect=DIALECT)
    own = hybrid.statement(later).compile(dialect=DIALECT)
    assert str(compiled) == str(own)
    assert compiled.construct_params(values) == own.construct_params()
    # And the values really differ between the two: the comparison above can fail.
    assert compiled.construct_params() != own.construct_params()


def test_another_shape_or_filter_structure_gets_its_own_statement() -> None:
    first, later = SHAPES["hybrid, weighted"]
    assert hybrid.prepared(first)[0] is hybrid.prepared(later)[0]
    assert hybrid.prepared(replace(later, rrf=True))[0] is not hybrid.prepared(later)[0]
    equal = replace(later, condition=filtered({"metadata.group": 7}))
    above = replace(later, condition=filtered({"metadata.group": {"$gt": 7}}))
    assert hybrid.prepared(equal)[0] is not hybrid.prepared(above)[0]


def test_knowledge_bases_with_different_queries_are_not_cached() -> None:
    """Per-knowledge-base headline queries (different languages) are literals in the SQL."""
    mixed = plan([target("'root'", ["root"]), target("'wurzel'", ["wurzel"])])
    assert hybrid.shape(mixed) is None
    assert hybrid.prepared(mixed)[0] is not hybrid.prepared(mixed)[0]


def test_a_documents_read_and_hidden_documents_run_with_the_callers_own_principals() -> None:
    """The same statements, built once per visibility structure, for keys that hold different
    principals (and, for the hidden documents, of different projects): each caller's values,
    never the first caller's."""
    kb_id, doc_id = uuid.uuid4(), uuid.uuid4()
    first_project, later_project = uuid.uuid4(), uuid.uuid4()
    projects = iter([first_project, later_project, later_project])
    for build in (
        lambda visible: documents_repository.by_ref_statement(kb_id, str(doc_id), visible),
        lambda visible: search_repository.hidden_documents_statement(
            next(projects), [kb_id], visible
        ),
    ):
        cached, _ = build(visible_documents_clause(frozenset({"team-a"})))
        later = visible_documents_clause(frozenset({"team-b"}))
        reused, values = build(later)
        assert reused is cached
        compiled = cached.compile(dialect=DIALECT).construct_params(values)
        assert ["team-b"] in compiled.values()
        assert ["team-a"] not in compiled.values()
        assert first_project not in compiled.values()
        # Another structure (no principals at all) is another statement.
        assert build(visible_documents_clause(frozenset()))[0] is not cached


def test_a_full_statement_cache_starts_over() -> None:
    cache: StatementCache[str] = StatementCache(size=2)
    condition = filtered({"metadata.group": 1})
    for shape in ("a", "b", "c"):
        cache.get(shape, condition, lambda shape=shape: f"statement {shape}", {})
    assert len(cache) == 1
    assert cache.get("a", condition, lambda: "rebuilt", {})[0] == "rebuilt"
