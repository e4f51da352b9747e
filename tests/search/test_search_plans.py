"""The indexes do the work: EXPLAIN shows HNSW and GIN, and filtered vector search fills top_k."""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx
import numpy as np
import pytest
from fastapi import FastAPI
from sqlalchemy import select, text, true
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.acl import visible_documents_clause
from app.db.tenancy import TenantScope, enter_scope
from app.models import Document, KnowledgeBase
from app.search import hybrid, plan_reuse, plans, repository, service
from app.search.schemas import SearchOptions
from tests.search.corpus import KeywordEmbedders, create_kb, unit

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "theta",
    "kappa",
    "lambda",
    "sigma",
    "omega",
]


async def fill(app: FastAPI, kb: dict[str, Any], rows: int, *, rare_every: int = 0) -> None:
    """`rows` chunks with random vectors and words; every `rare_every`-th is group 'rare'."""
    async with app.state.database.transaction() as session:
        await session.execute(
            text(
                "INSERT INTO documents (id, project_id, knowledge_base_id, title, status) "
                "SELECT :doc, project_id, id, 'bulk', 'ready' FROM knowledge_bases WHERE id = :kb"
            ),
            {"doc": uuid.uuid4(), "kb": uuid.UUID(kb["id"])},
        )
        await session.execute(
            text(
                "INSERT INTO chunks (id, project_id, knowledge_base_id, document_id, chunk_index, "
                "text, text_sha256, metadata, own_metadata, embedding) "
                "SELECT gen_random_uuid(), d.project_id, d.knowledge_base_id, d.id, g, "
                "(CAST(:words AS text[]))[1 + g % 11] || ' ' || "
                "(CAST(:words AS text[]))[1 + (g / 11) % 11] || ' text ' || g || "
                "CASE WHEN g % 300 = 0 THEN ' needle' ELSE '' END, md5(g::text), "
                "jsonb_build_object('group', CASE WHEN CAST(:every AS int) > 0 "
                "AND g % CAST(:every AS int) = 0 THEN 'rare' ELSE 'common' END), true, "
                "(SELECT array_agg(random() - 0.5 + g * 0 + i * 0) "
                "FROM generate_series(1, 384) i)::vector "
                "FROM documents d, generate_series(1, :rows) g WHERE d.knowledge_base_id = :kb"
            ),
            {"kb": uuid.UUID(kb["id"]), "rows": rows, "every": rare_every, "words": WORDS},
        )
        await session.execute(text("ANALYZE chunks"))
        await session.execute(text("ANALYZE documents"))


async def plan_and_explain(
    app: FastAPI, kb_id: str, options: SearchOptions, *, after_prepare: str | None = None
) -> tuple[str, int]:
    """EXPLAIN (ANALYZE) the statement a search runs, in the search's own transaction.

    The transaction is scoped to the project as a request's is (app role, row-level security,
    the tenant view of chunks), so the plans are the ones the API gets.
    """
    captured: dict[str, plans.Plan] = {}
    original = repository.search

    async def spy(session: AsyncSession, plan: plans.Plan) -> plans.Result:
        captured["plan"] = plan
        if after_prepare:
            await session.execute(text(after_prepare))
        return await original(session, plan)

    repository.search = spy  # type: ignore[assignment]
    try:
        async with app.state.database.transaction() as session:
            kb = await session.scalar(select(KnowledgeBase).where(KnowledgeBase.id == kb_id))
            assert kb is not None
            await enter_scope(session, TenantScope(kb.project_id))
            response = await service.search(
                session, [kb], options, embedders=KeywordEmbedders(), reranker=None
            )
            connection = await session.connection()
            compiled = hybrid.statement(captured["plan"]).compile(
                dialect=connection.dialect, compile_kwargs={"render_postcompile": True}
            )
            # As the driver gets them: through each type's bind processor (jsonb as JSON text).
            processors = compiled._bind_processors
            params = [
                processors[name](compiled.params[name])
                if name in processors
                else compiled.params[name]
                for name in compiled.positiontup or []
            ]
            raw = await connection.get_raw_connection()
            assert raw.driver_connection is not None
            rows = await raw.driver_connection.fetch("EXPLAIN ANALYZE " + str(compiled), *params)
    finally:
        repository.search = original  # type: ignore[assignment]
    return "\n".join(row[0] for row in rows), len(response.hits)


async def test_vector_search_uses_the_knowledge_base_hnsw_index(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "plans")
    other = await create_kb(client, "other")
    await fill(app, kb, 2000)
    await fill(app, other, 500)
    plan, hits = await plan_and_explain(
        app, kb["id"], SearchOptions(vector=unit([1, 1, 1]), mode="vector", top_k=10, candidates=20)
    )
    assert f"ix_chunks_embedding_{uuid.UUID(kb['id']).hex}" in plan
    assert "Seq Scan on chunks" not in plan
    assert hits == 10


async def test_text_search_uses_the_gin_index(client: httpx.AsyncClient, app: FastAPI) -> None:
    kb = await create_kb(client, "gin")
    await fill(app, kb, 3000)
    plan, hits = await plan_and_explain(
        app, kb["id"], SearchOptions(query="needle", mode="text", top_k=10)
    )
    # A partition's copy of ix_chunks_tsv (migration 0030).
    assert re.search(r"Bitmap Index Scan on chunks_p\d+_tsv_idx", plan), plan
    assert hits == 10


async def test_filtered_vector_search_still_returns_top_k(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "iterative")
    await fill(app, kb, 3000, rare_every=50)  # 2% of the chunks
    options = SearchOptions(
        vector=unit([1, -1, 1]),
        mode="vector",
        top_k=10,
        candidates=10,
        filter={"metadata.group": "rare"},
    )
    plan, hits = await plan_and_explain(app, kb["id"], options)
    assert f"ix_chunks_embedding_{uuid.UUID(kb['id']).hex}" in plan
    assert hits == 10
    # The same query without iterative scans loses most of its hits to the filter.
    _, without = await plan_and_explain(
        app, kb["id"], options, after_prepare="SET LOCAL hnsw.iterative_scan = off"
    )
    assert without < 10
    found = await client.post(
        f"/v1/knowledge-bases/{kb['id']}/search", json=options.model_dump(exclude_none=True)
    )
    assert len(found.json()["hits"]) == 10
    assert all(hit["metadata"]["group"] == "rare" for hit in found.json()["hits"])


async def test_a_filter_on_few_documents_scores_their_chunks_exactly(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """`doc_id` (a document field) chooses documents first: their chunks are scored one by
    one through the document index, not found by walking the HNSW graph."""
    kb = await create_kb(client, "chosen")
    await fill(app, kb, 2000)
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((30, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    loaded = await client.post(
        f"/v1/knowledge-bases/{kb['id']}/chunks/bulk",
        json={
            "chunks": [
                {"doc_id": "small", "text": f"small {i}", "vector": vector.tolist()}
                for i, vector in enumerate(vectors)
            ]
        },
    )
    assert loaded.status_code == 200, loaded.text
    chunk_ids = loaded.json()["chunk_ids"]
    first = await client.get(f"/v1/knowledge-bases/{kb['id']}/chunks/{chunk_ids[0]}")
    small = first.json()["doc_id"]
    query = unit([1, -1, 1])
    options = SearchOptions(
        vector=query, mode="vector", top_k=10, candidates=10, filter={"doc_id": small}
    )
    plan, hits = await plan_and_explain(app, kb["id"], options)
    assert f"ix_chunks_embedding_{uuid.UUID(kb['id']).hex}" not in plan
    assert re.search(r"chunks_p\d+_document_id_chunk_index_idx", plan), plan
    assert hits == 10
    found = await client.post(
        f"/v1/knowledge-bases/{kb['id']}/search", json=options.model_dump(exclude_none=True)
    )
    exact = np.argsort(-(vectors @ np.asarray(query, dtype=np.float32)))[:10]
    assert [hit["chunk_id"] for hit in found.json()["hits"]] == [chunk_ids[i] for i in exact]


async def test_filters_on_chunk_metadata_are_not_prefiltered(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """A chunk's own metadata comes before its document's: documents alone cannot say which
    chunks pass, so such a filter is applied chunk by chunk (the HNSW scan filters)."""
    kb = await create_kb(client, "by-metadata")
    await fill(app, kb, 500, rare_every=50)
    captured: list[plans.Plan] = []
    original = repository.search

    async def spy(session: AsyncSession, plan: plans.Plan) -> plans.Result:
        captured.append(plan)
        return await original(session, plan)

    repository.search = spy  # type: ignore[assignment]
    try:
        for spec in ({"metadata.group": "rare"}, {"doc_title": "bulk"}):
            response = await client.post(
                f"/v1/knowledge-bases/{kb['id']}/search",
                json={"vector": unit([1, 1, 1]), "mode": "vector", "filter": spec},
            )
            assert response.status_code == 200, response.text
    finally:
        repository.search = original  # type: ignore[assignment]
    by_metadata, by_title = captured
    assert by_metadata.documents is None
    assert by_title.documents is not None
    assert len(by_title.documents) == 1


async def test_metadata_filters_go_document_first_until_a_chunk_has_its_own(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """Ingested chunks carry their document's metadata: a metadata filter is decided per
    document. Once a chunk has metadata of its own (chunk API), it is read before its
    document's, and the filter goes back to being applied chunk by chunk."""
    kb = await create_kb(client, "owned")
    base = f"/v1/knowledge-bases/{kb['id']}"
    doc_ids = {}
    for group in ("a", "b"):
        uploaded = await client.post(
            f"{base}/documents",
            params={"wait": "true"},
            json={"text": f"Alpha text of group {group}.", "metadata": {"group": group}},
        )
        assert uploaded.status_code in (200, 201, 202), uploaded.text
        doc_ids[group] = uploaded.json()["id"]
    captured: list[plans.Plan] = []
    original = repository.search

    async def spy(session: AsyncSession, plan: plans.Plan) -> plans.Result:
        captured.append(plan)
        return await original(session, plan)

    async def group_a() -> list[dict[str, Any]]:
        found = await client.post(
            f"{base}/search",
            json={"query": "alpha", "mode": "text", "filter": {"metadata.group": "a"}},
        )
        assert found.status_code == 200, found.text
        hits: list[dict[str, Any]] = found.json()["hits"]
        return hits

    repository.search = spy  # type: ignore[assignment]
    try:
        before = await group_a()
        own = await client.put(
            f"{base}/chunks/{uuid.uuid4()}",
            json={
                "text": "Alpha, filed under a.",
                "doc_id": doc_ids["b"],
                "metadata": {"group": "a"},
            },
        )
        assert own.status_code == 201, own.text
        after = await group_a()
    finally:
        repository.search = original  # type: ignore[assignment]
    assert captured[0].documents is not None
    assert [str(d) for d in captured[0].documents] == [doc_ids["a"]]
    assert {hit["doc_id"] for hit in before} == {doc_ids["a"]}
    assert captured[1].documents is None
    assert {hit["doc_id"] for hit in after} == {doc_ids["a"], doc_ids["b"]}
    assert own.json()["chunk_id"] in {hit["chunk_id"] for hit in after}


async def test_documents_are_chosen_only_when_few(
    client: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = await create_kb(client, "few")
    for i in range(3):
        uploaded = await client.post(
            f"/v1/knowledge-bases/{kb['id']}/documents",
            params={"wait": "true"},
            json={"text": f"Document number {i}.", "title": f"doc {i}"},
        )
        assert uploaded.status_code in (200, 201, 202), uploaded.text
    kb_ids = [uuid.UUID(kb["id"])]
    async with app.state.database.transaction() as session:
        kb_row = await session.get(KnowledgeBase, kb_ids[0])
        assert kb_row is not None
        project_id = kb_row.project_id

    async def chosen(condition: Any, max_chunks: int = 1_000) -> list[uuid.UUID] | None:
        async with app.state.database.transaction() as session:
            return await repository.prefilter_documents(
                session, project_id, kb_ids, condition, max_chunks=max_chunks
            )

    everything = await chosen(true())
    assert everything is not None
    assert len(everything) == 3
    one = await titled(app, "doc 1")
    assert len(one) == 1
    assert await chosen(Document.__table__.c.title == "doc 1") == one
    assert await chosen(Document.__table__.c.title == "nothing") == []
    assert await chosen(true(), max_chunks=2) is None
    monkeypatch.setattr(repository, "PREFILTER_MAX_DOCUMENTS", 2)
    assert await chosen(true()) is None


def test_the_exact_scan_limit_follows_the_knowledge_base_size() -> None:
    assert repository.prefilter_limit(0) == repository.PREFILTER_MIN_CHUNKS
    assert repository.prefilter_limit(20_000) == 2_000
    assert repository.prefilter_limit(100_000) == repository.PREFILTER_MAX_CHUNKS
    assert repository.prefilter_limit(10_000_000) == repository.PREFILTER_MAX_CHUNKS


async def titled(app: FastAPI, title: str) -> list[uuid.UUID]:
    async with app.state.database.transaction() as session:
        found = await session.scalars(select(Document.id).where(Document.title == title))
        return list(found)


async def test_hidden_documents_are_listed_through_their_partial_index(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "restricted")
    for i, access in enumerate((None, {"principals": ["group:hr"]})):
        uploaded = await client.post(
            f"/v1/knowledge-bases/{kb['id']}/documents",
            params={"wait": "true"},
            json={"text": f"Document number {i}.", "title": f"doc {i}", "access": access},
        )
        assert uploaded.status_code in (200, 201, 202), uploaded.text
    kb_id = uuid.UUID(kb["id"])
    visible = visible_documents_clause(frozenset({"group:staff"}))
    async with app.state.database.transaction() as session:
        kb_row = await session.get(KnowledgeBase, kb_id)
        assert kb_row is not None
        await enter_scope(session, TenantScope(kb_row.project_id))
        found = await repository.hidden_documents(session, kb_row.project_id, [kb_id], visible)
        assert found is not None
        assert found[0] == await titled(app, "doc 1")
        # Whether the index can serve it, not whether two documents are worth it.
        await session.execute(text("SELECT set_config('enable_seqscan', 'off', true)"))
        connection = await session.connection()
        query = repository.hidden_documents_query(kb_row.project_id, [kb_id], visible)
        compiled = query.compile(
            dialect=connection.dialect, compile_kwargs={"render_postcompile": True}
        )
        params = [compiled.params[name] for name in compiled.positiontup or []]
        raw = await connection.get_raw_connection()
        assert raw.driver_connection is not None
        rows = await raw.driver_connection.fetch("EXPLAIN " + str(compiled), *params)
    assert "ix_documents_restricted" in "\n".join(row[0] for row in rows)


GENERIC_PLAN_FUNCTION = (
    "CREATE FUNCTION pg_temp.generic_plan(statement text) RETURNS SETOF text "
    "LANGUAGE plpgsql AS $$ BEGIN "
    "RETURN QUERY EXECUTE 'EXPLAIN (GENERIC_PLAN) ' || statement; END $$"
)


async def test_a_knowledge_base_searched_again_keeps_its_plan(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """The first searches of a knowledge base share a statement that is planned for each
    search; once it is searched again and again (app/search/plan_reuse.py), its searches run
    a statement of its own whose generic plan Postgres keeps, and that plan still reads the
    knowledge base's HNSW index and its partition's GIN index."""
    kb = await create_kb(client, "generic")
    await fill(app, kb, 2000)
    kb_id = uuid.UUID(kb["id"])
    captured: dict[str, plans.Plan] = {}
    original = repository.search

    async def spy(session: AsyncSession, plan: plans.Plan) -> plans.Result:
        captured["plan"] = plan
        return await original(session, plan)

    repository.search = spy  # type: ignore[assignment]
    try:
        async with app.state.database.transaction() as session:
            await session.execute(text(GENERIC_PLAN_FUNCTION))
            row = await session.scalar(select(KnowledgeBase).where(KnowledgeBase.id == kb_id))
            assert row is not None
            await enter_scope(session, TenantScope(row.project_id))
            found, reused = [], []
            for i, word in enumerate(WORDS[:8]):
                options = SearchOptions(query=f"{word} text", vector=unit([1, i + 1, 1]), top_k=5)
                response = await service.search(
                    session, [row], options, embedders=KeywordEmbedders(), reranker=None
                )
                found.append(len(response.hits))
                reused.append(captured["plan"].reuse_plan)
            counts = {
                str(kb_id) in statement: (generic, custom)
                for statement, generic, custom in await session.execute(
                    text(
                        "SELECT statement, generic_plans, custom_plans "
                        "FROM pg_prepared_statements WHERE statement LIKE 'WITH vector_side%'"
                    )
                )
            }
            connection = await session.connection()
            sql = str(
                hybrid.statement(captured["plan"]).compile(
                    dialect=connection.dialect, compile_kwargs={"render_postcompile": True}
                )
            )
            plan = "\n".join(
                await session.scalars(
                    select(text("* FROM pg_temp.generic_plan(:sql)")), {"sql": sql}
                )
            )
    finally:
        repository.search = original  # type: ignore[assignment]
    assert found == [5] * 8
    assert reused == [False, False] + [True] * 6
    # The shared statement: planned for each of the first two searches.
    assert counts[False] == (0, 2)
    # The knowledge base's own: five custom plans, then the generic one is kept.
    generic, custom = counts[True]
    assert generic >= 1, counts
    assert generic + custom == 6, counts
    assert f"ix_chunks_embedding_{kb_id.hex}" in plan, plan
    assert re.search(r"Bitmap Index Scan on chunks_p\d+_tsv_idx", plan), plan
    assert "Seq Scan on chunks" not in plan


def test_knowledge_bases_searched_again_soon_keep_their_plans() -> None:
    recent = plan_reuse.RecentKnowledgeBases(remembered=3)
    a, b, c, d = (uuid.uuid4() for _ in range(4))
    assert [recent.note([a]) for _ in range(4)] == [False, False, True, True]
    # A search of several knowledge bases keeps its plan once each of them would.
    assert recent.note([a, b]) is False
    assert recent.note([a, b]) is False
    assert recent.note([a, b]) is True
    # Forgotten once three others were searched since: counted from the start again.
    for other in (b, c, d):
        recent.note([other])
    assert recent.note([a]) is False
    # More knowledge bases than it remembers never keep a plan.
    assert recent.note([a, b, c, d]) is False
