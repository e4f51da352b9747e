"""HNSW indexes on entity name and relation fact vectors (app/graph/vector_index.py): a
knowledge base with the graph on has them, one without does not, and graph vector search reads
them through the tenant views."""

from __future__ import annotations

import uuid

import httpx
import numpy as np
from fastapi import FastAPI
from sqlalchemy import text

from app.chunks import index_upkeep
from app.graph import retrieval
from app.graph import vector_index as graph_vector_index
from app.graph.repository import Visibility
from app.models import KnowledgeBase
from tests.graph.synthetic import Graph, fixed
from tests.helpers import statements_sent

NAMES = graph_vector_index.ENTITY_NAMES
FACTS = graph_vector_index.RELATION_FACTS


async def indexes(app: FastAPI, knowledge_base_id: str | uuid.UUID) -> set[str]:
    kb = uuid.UUID(str(knowledge_base_id))
    async with app.state.database.transaction() as session:
        found = await session.scalars(
            text(
                "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                "WHERE i.indisvalid AND c.relname IN (:names, :facts)"
            ),
            {
                "names": graph_vector_index.index_name(NAMES, kb),
                "facts": graph_vector_index.index_name(FACTS, kb),
            },
        )
        return set(found)


async def test_the_graph_setting_builds_and_drops_the_indexes(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    created = await client.post(
        "/v1/knowledge-bases", json={"name": "graphed", "graph": {"enabled": True}}
    )
    assert created.status_code == 201, created.text
    kb = created.json()["id"]
    plain = (await client.post("/v1/knowledge-bases", json={"name": "plain"})).json()["id"]
    assert len(await indexes(app, kb)) == 2
    assert await indexes(app, plain) == set()

    off = await client.patch("/v1/knowledge-bases/graphed", json={"graph": {"enabled": False}})
    assert off.status_code == 200, off.text
    assert await indexes(app, kb) == set()
    on = await client.patch("/v1/knowledge-bases/plain", json={"graph": {"enabled": True}})
    assert on.status_code == 200, on.text
    assert len(await indexes(app, plain)) == 2

    assert (await client.delete("/v1/knowledge-bases/plain")).status_code == 204
    assert await indexes(app, plain) == set()


async def test_the_sweep_builds_missing_graph_indexes_and_drops_unwanted_ones(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """What a process that died between the commit and the build or drop leaves behind."""
    kb = (
        await client.post("/v1/knowledge-bases", json={"name": "g", "graph": {"enabled": True}})
    ).json()["id"]
    other = (
        await client.post("/v1/knowledge-bases", json={"name": "o", "graph": {"enabled": True}})
    ).json()["id"]
    async with app.state.database.transaction() as session:
        await session.execute(
            text(f"DROP INDEX {graph_vector_index.index_name(NAMES, uuid.UUID(kb))}")
        )
        # Turned off without its drop.
        await session.execute(
            text("UPDATE knowledge_bases SET graph = '{}' WHERE id = :id"), {"id": uuid.UUID(other)}
        )
    assert await index_upkeep.sweep(app.state.database) == (1, 2)
    assert len(await indexes(app, kb)) == 2
    assert await indexes(app, other) == set()
    assert await index_upkeep.sweep(app.state.database) == (0, 0)


async def test_quick_search_walks_the_hnsw_indexes_and_finds_the_nearest(
    graph: Graph, client: httpx.AsyncClient
) -> None:
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((400, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    names = [f"Entity {i}" for i in range(len(vectors))]
    rows = zip(names, vectors, strict=True)
    await graph.write([(name, f"{name} is a thing.", [float(x) for x in v]) for name, v in rows])
    database = graph.app.state.database
    async with database.transaction() as session:
        await session.execute(
            text("UPDATE graph_relations SET fact_embedding = NULL WHERE knowledge_base_id = :k"),
            {"k": graph.kb},
        )
        await session.execute(
            text("UPDATE knowledge_bases SET graph = '{\"enabled\": true}' WHERE id = :k"),
            {"k": graph.kb},
        )
        kb = await session.get(KnowledgeBase, graph.kb)
        assert kb is not None
    assert await graph_vector_index.build(database, kb) == 2
    target = [float(x) for x in vectors[123]]
    async with database.transaction(project_id=graph.project) as session:
        with statements_sent(database.engine, lambda s: "graph_" in s or "set_config" in s) as sent:
            found = await retrieval.quick(
                session,
                Visibility(graph.kb, frozenset({"group:staff"})),
                "",
                vector_of=fixed(target),
                search_limit=10,
                max_growth_levels=1,
            )
        connection = await session.connection()
        plans = []
        for statement, parameters in sent:
            if "set_config(" in statement or "name_embedding" not in statement:
                await connection.exec_driver_sql(statement, parameters)
                continue
            explained = await connection.exec_driver_sql("EXPLAIN " + statement, parameters)
            plans += [row[0] for row in explained]
    assert graph_vector_index.index_name(NAMES, graph.kb) in "\n".join(plans)
    best = found.ranked_nodes()[0]
    assert best.name == "Entity 123"
    assert abs(best.score - 1.0) < 1e-4
    assert len(found.nodes) == 6  # 60 % of the search limit, all readable
