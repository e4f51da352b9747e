"""Graph search reads through the tenant views (migration 0026): the trigram indexes serve its
pattern and trigram steps, and what it finds is what the tables under row-level security give."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.graph import retrieval, search_repository
from app.graph.repository import Visibility
from tests.graph.synthetic import Graph, fixed
from tests.helpers import statements_sent

# Rows of filler: enough for the index test's planner to prefer a trigram index to the
# knowledge base's own, and a few for the tests that compare results.
INDEXED = 20_000
FEW = 1_000
STAFF = frozenset({"group:staff"})


async def fill(graph: Graph, client: httpx.AsyncClient, rows: int = FEW) -> uuid.UUID:
    """Thousands of filler entities and facts (enough that an index beats a scan), every
    second one known only from a document staff may not read, and a few that match."""
    private = await client.post(
        "/v1/knowledge-bases/synthetic/documents",
        params={"wait": "true"},
        json={"text": "# Private\n\nA private document.", "access": {"principals": ["group:x"]}},
    )
    assert private.status_code in (200, 201), private.text
    secret = uuid.UUID(private.json()["id"])
    await graph.write(
        [
            ("Marie Curie", "Marie Curie studied radium.", None),
            ("Pierre Curie", "Pierre Curie taught physics.", None),
            ("Radium", "Radium glows.", None),
        ],
        [("Marie Curie", "Pierre Curie", "Marie Curie married Pierre Curie in Paris.")],
    )
    ids = {"p": graph.project, "kb": graph.kb, "c": graph.chunk, "x": uuid.uuid4(), "rows": rows}
    ids |= {"d": graph.document, "s": secret}
    async with graph.app.state.database.transaction() as session:
        for statement in (
            "INSERT INTO graph_entities (id, project_id, knowledge_base_id, key, name, type) "
            "SELECT gen_random_uuid(), :p, :kb, 'filler ' || n, 'Filler item ' || n, 'CONCEPT' "
            "FROM generate_series(1, :rows) n",
            "INSERT INTO graph_entity_mentions (entity_id, chunk_id, document_id, project_id, "
            "knowledge_base_id, surface, description, extraction) SELECT e.id, :c, "
            "CASE WHEN right(e.key, 1) IN ('0', '2', '4', '6', '8') "
            "THEN CAST(:d AS uuid) ELSE CAST(:s AS uuid) END, "
            "e.project_id, e.knowledge_base_id, e.name, 'A sentence about ' || e.name || "
            "CASE WHEN e.key = 'filler 7' THEN ' and Curie' ELSE '' END, :x "
            "FROM graph_entities e WHERE e.key LIKE 'filler %'",
            "INSERT INTO graph_relations (id, project_id, knowledge_base_id, source_id, "
            "target_id, type, fact) SELECT gen_random_uuid(), e.project_id, "
            "e.knowledge_base_id, e.id, e.id, 'related_to', e.name || ' relates to a '"
            " || CASE WHEN e.key LIKE '%3' THEN 'curious curator' ELSE 'thing' END "
            "FROM graph_entities e WHERE e.key LIKE 'filler %'",
            "INSERT INTO graph_relation_mentions (relation_id, chunk_id, document_id, "
            "project_id, knowledge_base_id, extraction) SELECT r.id, :c, m.document_id, "
            "r.project_id, r.knowledge_base_id, :x FROM graph_relations r JOIN "
            "graph_entity_mentions m ON m.entity_id = r.source_id WHERE r.source_id = r.target_id",
        ):
            await session.execute(text(statement), ids)
        for table in ("graph_entities", "graph_entity_mentions", "graph_relations", "documents"):
            await session.execute(text(f"ANALYZE {table}"))
    return secret


async def explain(session: AsyncSession, statements: list[tuple[str, Any]]) -> str:
    connection = await session.connection()
    plans = []
    for statement, parameters in statements:
        explained = await connection.exec_driver_sql("EXPLAIN " + statement, parameters)
        plans += [row[0] for row in explained]
    return "\n".join(plans)


def summary(found: retrieval.Retrieved) -> tuple[Any, ...]:
    return (
        [(n.id, n.score, n.summary) for n in found.ranked_nodes()],
        [(e.id, e.score) for e in found.ranked_edges()],
    )


async def test_graph_search_uses_the_trigram_indexes_through_the_views(
    graph: Graph, client: httpx.AsyncClient
) -> None:
    await fill(graph, client, INDEXED)
    engine = graph.app.state.database.engine
    vis = Visibility(graph.kb, STAFF)
    async with graph.app.state.database.transaction(project_id=graph.project) as session:
        tables_path = await session.scalar(text("SELECT current_setting('search_path')"))
        with statements_sent(engine, lambda statement: "graph_" in statement) as sent:
            found = await retrieval.standard(
                session, vis, "Marie Curie radium", vector_of=fixed(None)
            )
        trigram = [(s, p) for s, p in sent if "ILIKE ANY" in s or "%" in s]
        # Whether an index can serve a step, not whether this small graph is worth it.
        await session.execute(text("SELECT set_config('enable_seqscan', 'off', true)"))
        views_plan = await explain(session, trigram)
        await session.execute(
            text("SELECT set_config('search_path', :p, true)"), {"p": tables_path}
        )
        tables_plan = await explain(session, trigram)
    assert "Marie Curie" in {n.name for n in found.nodes.values()}
    assert len(trigram) >= 4  # pattern nodes and edges, trigram nodes and edges
    for index in (
        "ix_graph_entities_name_trgm",
        "ix_graph_entity_mentions_description_trgm",
        "ix_graph_relations_fact_trgm",
    ):
        assert index in views_plan, index
        # The tables under row-level security: the policy comes first, the index is unusable.
        assert index not in tables_plan, index


@pytest.mark.parametrize("principals", [STAFF, None])
async def test_views_find_what_the_tables_find(
    graph: Graph,
    client: httpx.AsyncClient,
    principals: frozenset[str] | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The same rows, however long a trigram step takes: the tables under row-level security
    # cannot use the trigram indexes, and on a busy machine a step over its time budget would
    # stop them at a higher threshold, with fewer rows, where the views went on.
    monkeypatch.setattr(search_repository, "TRIGRAM_STEP_BUDGET_MS", 60_000)
    secret = await fill(graph, client)
    vis = Visibility(graph.kb, principals)
    database = graph.app.state.database
    for query in ("Marie Curie radium", "curious curator filler item"):
        async with database.transaction() as session:  # the owner: the tables themselves
            tables = await retrieval.standard(session, vis, query, vector_of=fixed(None))
        async with database.transaction(project_id=graph.project) as session:
            views = await retrieval.standard(session, vis, query, vector_of=fixed(None))
            async with database.transaction(project_id=graph.project) as other:
                path = await other.scalar(text("SELECT current_setting('search_path')"))
        assert summary(views) == summary(tables), query
        assert views.nodes, query
        assert "arbor_tenant" not in str(path)  # set for the transaction only
    if principals is not None:
        async with database.transaction(project_id=graph.project) as session:
            hidden = await session.scalars(
                text("SELECT entity_id FROM graph_entity_mentions WHERE document_id = :s"),
                {"s": secret},
            )
            assert not set(hidden.all()) & set(views.nodes)


async def test_descending_thresholds_give_exactly_the_top_rows_at_the_seeds_threshold(
    graph: Graph, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    await fill(graph, client)
    vis = Visibility(graph.kb, STAFF)
    database = graph.app.state.database
    terms = ["filler item 13", "curious curator"]

    async def both() -> tuple[list[Any], list[Any]]:
        async with database.transaction(project_id=graph.project) as session:
            nodes = await search_repository.trigram_nodes(session, vis, terms, limit=6)
            edges = await search_repository.trigram_edges(session, vis, terms, limit=8)
        return [tuple(r) for r in nodes], [tuple(r) for r in edges]

    stepped = await both()
    monkeypatch.setattr(search_repository, "THRESHOLD_STEPS", (0.1,))
    direct = await both()
    assert stepped == direct
    assert len(stepped[0]) == 6
    assert len(stepped[1]) == 8


async def test_a_threshold_over_its_time_budget_leaves_the_rows_of_the_one_above(
    graph: Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_repository, "TRIGRAM_STEP_BUDGET_MS", 100)
    tried: list[float] = []

    async with graph.app.state.database.transaction(project_id=graph.project) as session:

        async def run(threshold: float) -> list[Any]:
            tried.append(threshold)
            if threshold < 0.5:  # a lower threshold whose recheck takes too long
                await session.execute(text("SELECT pg_sleep(2)"))
            return [f"row at {threshold}"]

        rows = await search_repository._most_similar(session, 5, run)
        # The transaction goes on, without the budget.
        timeout = await session.scalar(text("SELECT current_setting('statement_timeout')"))
        assert await session.scalar(text("SELECT 1")) == 1
    assert rows == ["row at 0.5"]
    assert tried == [0.5, 0.3]
    assert timeout == "0"
