"""Row-level security: a query that forgets its project filter still sees one project only."""

from __future__ import annotations

import re
import uuid

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.config import Settings
from app.db.engine import Database
from app.db.tenancy import APP_ROLE, elevated, read_through_tenant_views
from app.jobs.repository import new_job
from app.jobs.worker import WorkerPool
from app.models import Job
from tests.auth.helpers import bearer, create_key, create_project, upload

TENANT_TABLES = (
    "knowledge_bases",
    "documents",
    "chunks",
    "jobs",
    "document_sources",
    "api_keys",
    "audit_events",
)


async def two_projects(client: httpx.AsyncClient) -> dict[str, dict[str, str]]:
    """Projects a and b, each with a knowledge base, a ready document, a job and an event."""
    found: dict[str, dict[str, str]] = {}
    for name in ("a", "b"):
        project = await create_project(client, name)
        key = (await create_key(client, name, scopes=["write"]))["key"]
        kb = (
            await client.post("/v1/knowledge-bases", json={"name": "kb"}, headers=bearer(key))
        ).json()["id"]
        await upload(client, key, kb, f"# {name}\n\nThe same words in every project.")
        found[name] = {"project": project["id"], "kb": kb, "key": key}
    return found


async def ids_seen(database: Database, project: str, table: str) -> set[str]:
    async with database.transaction(project_id=uuid.UUID(project)) as session:
        rows = await session.execute(text(f"SELECT project_id FROM {table}"))
        return {str(row[0]) for row in rows}


async def test_unfiltered_queries_see_one_project(client: httpx.AsyncClient, app: FastAPI) -> None:
    projects = await two_projects(client)
    database: Database = app.state.database
    for name, other in (("a", "b"), ("b", "a")):
        mine, theirs = projects[name]["project"], projects[other]["project"]
        for table in TENANT_TABLES:
            seen = await ids_seen(database, mine, table)
            # Sources are deleted once a document is parsed; every other table has rows.
            assert seen == ({mine} if table != "document_sources" else seen & {mine}), table
        async with database.transaction(project_id=uuid.UUID(mine)) as session:
            # Even asking for the other project by name of its column finds nothing.
            for table in TENANT_TABLES:
                count = await session.scalar(
                    text(f"SELECT count(*) FROM {table} WHERE project_id = :p"), {"p": theirs}
                )
                assert count == 0, table
            projects_seen = await session.scalars(text("SELECT id FROM projects"))
            assert {str(p) for p in projects_seen} == {mine}
            assert await session.scalar(text("SELECT current_user")) == APP_ROLE
    async with database.transaction() as session:
        # The service's own transactions (job queue, key lookup) see every project.
        everyone = await session.scalars(text("SELECT DISTINCT project_id FROM chunks"))
        assert {str(p) for p in everyone} == {projects["a"]["project"], projects["b"]["project"]}


async def test_writes_into_another_project_are_refused(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    projects = await two_projects(client)
    database: Database = app.state.database
    a, b = projects["a"], projects["b"]
    with pytest.raises(DBAPIError, match="row-level security"):
        async with database.transaction(project_id=uuid.UUID(a["project"])) as session:
            await session.execute(
                text(
                    "INSERT INTO knowledge_bases (id, project_id, name, title, embedding_provider,"
                    " embedding_model, embedding_dimensions, embedding_variant) VALUES "
                    "(gen_random_uuid(), :p, 'sneaky', 'sneaky', 'none', 'none', 4, 'none')"
                ),
                {"p": b["project"]},
            )
    async with database.transaction(project_id=uuid.UUID(a["project"])) as session:
        updated = await session.execute(text("UPDATE documents SET title = 'mine now'"))
        deleted = await session.execute(
            text("DELETE FROM chunks WHERE knowledge_base_id = :kb"), {"kb": b["kb"]}
        )
        assert deleted.rowcount == 0  # type: ignore[attr-defined]
        assert updated.rowcount == 1  # type: ignore[attr-defined]
    response = await client.get(
        f"/v1/knowledge-bases/{b['kb']}/documents", headers=bearer(b["key"])
    )
    assert [d["title"] for d in response.json()["items"]] == ["b"]


async def test_without_a_project_the_app_role_sees_nothing(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await two_projects(client)
    database: Database = app.state.database
    async with database.transaction() as session:
        await session.execute(text(f"SET LOCAL ROLE {APP_ROLE}"))
        for table in TENANT_TABLES:
            assert await session.scalar(text(f"SELECT count(*) FROM {table}")) == 0, table


async def test_knowledge_base_limit_is_enforced_by_the_database(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    projects = await two_projects(client)
    a = projects["a"]
    other = (
        await client.post("/v1/knowledge-bases", json={"name": "other"}, headers=bearer(a["key"]))
    ).json()["id"]
    await upload(client, a["key"], other, "Another document in another knowledge base.")
    database: Database = app.state.database
    async with database.transaction(
        project_id=uuid.UUID(a["project"]), knowledge_bases=[uuid.UUID(a["kb"])]
    ) as session:
        for table, column in (
            ("knowledge_bases", "id"),
            ("documents", "knowledge_base_id"),
            ("chunks", "knowledge_base_id"),
            ("jobs", "knowledge_base_id"),
        ):
            seen = await session.scalars(text(f"SELECT DISTINCT {column} FROM {table}"))
            assert {str(kb) for kb in seen} == {a["kb"]}, table
    async with database.transaction(
        project_id=uuid.UUID(a["project"]), knowledge_bases=[]
    ) as session:
        assert await session.scalar(text("SELECT count(*) FROM knowledge_bases")) == 0


async def test_every_project_table_has_forced_row_security(app: FastAPI) -> None:
    """A table added later with a project_id column must get policies too."""
    async with app.state.database.transaction() as session:
        rows = (
            await session.execute(
                text(
                    "SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity, "
                    "EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid "
                    f"AND (SELECT oid FROM pg_roles WHERE rolname = '{APP_ROLE}') "
                    "= ANY (p.polroles)) "
                    "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                    "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND EXISTS ("
                    "SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid "
                    "AND a.attname = 'project_id' AND NOT a.attisdropped)"
                )
            )
        ).all()
        role = (
            await session.execute(
                text(
                    "SELECT rolsuper, rolbypassrls, rolcanlogin FROM pg_roles "
                    f"WHERE rolname = '{APP_ROLE}'"
                )
            )
        ).one()
    assert {row[0] for row in rows} >= set(TENANT_TABLES)
    unprotected = [row[0] for row in rows if not (row[1] and row[2] and row[3])]
    assert unprotected == []
    assert tuple(role) == (False, False, False)


async def test_search_view_keeps_the_text_index_usable(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """Under RLS Postgres cannot use GIN for `@@`; through the view it can (migration 0004)."""
    projects = await two_projects(client)
    database: Database = app.state.database
    async with database.transaction() as session:
        # Enough chunks that a rare word is worth the GIN index.
        await session.execute(
            text(
                "INSERT INTO chunks (id, project_id, knowledge_base_id, document_id, text, "
                "text_sha256) SELECT gen_random_uuid(), d.project_id, d.knowledge_base_id, d.id, "
                "'filler text number ' || n, md5(n::text) FROM documents d, "
                "generate_series(1, 3000) n WHERE d.project_id = :p"
            ),
            {"p": projects["a"]["project"]},
        )
        await session.execute(text("ANALYZE chunks"))
    query = "EXPLAIN SELECT id FROM chunks WHERE tsv @@ to_tsquery('english', 'words')"
    async with database.transaction(project_id=uuid.UUID(projects["a"]["project"])) as session:
        table_plan = "\n".join((await session.scalars(text(query))).all())
        await read_through_tenant_views(session)
        view_plan = "\n".join((await session.scalars(text(query))).all())
        rows = await session.scalars(
            text("SELECT DISTINCT project_id FROM chunks WHERE tsv @@ to_tsquery('words')")
        )
        assert {str(p) for p in rows} == {projects["a"]["project"]}
    # Each partition's copy of ix_chunks_tsv (migration 0030).
    assert "_tsv_idx" not in table_plan
    assert re.search(r"Bitmap Index Scan on chunks_p\d+_tsv_idx", view_plan), view_plan


async def test_vector_index_ddl_runs_as_the_owner(client: httpx.AsyncClient, app: FastAPI) -> None:
    projects = await two_projects(client)
    database: Database = app.state.database
    kb = uuid.UUID(projects["a"]["kb"])
    async with database.transaction() as session:
        indexes = await session.scalars(
            text("SELECT indexname FROM pg_indexes WHERE indexname = :name"),
            {"name": f"ix_chunks_embedding_{kb.hex}"},
        )
        assert len(indexes.all()) == 1
    async with database.transaction(project_id=uuid.UUID(projects["a"]["project"])) as session:
        async with elevated(session):
            assert await session.scalar(text("SELECT current_user")) != APP_ROLE
        assert await session.scalar(text("SELECT current_user")) == APP_ROLE
    response = await client.delete(
        f"/v1/knowledge-bases/{kb}", headers=bearer(projects["a"]["key"])
    )
    assert response.status_code == 204
    async with database.transaction() as session:
        left = await session.scalar(
            text("SELECT count(*) FROM pg_indexes WHERE indexname = :name"),
            {"name": f"ix_chunks_embedding_{kb.hex}"},
        )
        assert left == 0


async def test_job_handlers_run_scoped_to_their_jobs_project(database_url: str) -> None:
    """The queue is claimed unscoped; each handler's transactions see its job's project only."""
    settings = Settings(env="test", database_url=database_url, workers=0)
    database = Database(database_url, settings)
    projects = [uuid.uuid4(), uuid.uuid4()]
    kbs = [uuid.uuid4(), uuid.uuid4()]
    try:
        async with database.transaction() as session:
            for project, kb in zip(projects, kbs, strict=True):
                await session.execute(
                    text("INSERT INTO projects (id, name) VALUES (:id, :name)"),
                    {"id": project, "name": f"p-{project.hex[:8]}"},
                )
                await session.execute(
                    text(
                        "INSERT INTO knowledge_bases (id, project_id, name, title, "
                        "embedding_provider, embedding_model, embedding_dimensions, "
                        "embedding_variant) VALUES (:id, :p, 'kb', 'kb', 'none', 'none', 4, 'none')"
                    ),
                    {"id": kb, "p": project},
                )
                session.add(
                    new_job(
                        project_id=project,
                        knowledge_base_id=kb,
                        document_id=None,
                        kind="probe",
                        payload={},
                        max_attempts=1,
                    )
                )
        seen: list[tuple[str, set[uuid.UUID], uuid.UUID]] = []

        async def probe(job: Job) -> None:
            async with database.transaction() as session:
                user = await session.scalar(text("SELECT current_user"))
                visible = set(await session.scalars(text("SELECT project_id FROM knowledge_bases")))
                seen.append((str(user), visible, job.project_id))

        pool = WorkerPool(database, settings, {"probe": probe}, concurrency=1)
        assert await pool.run_once()
        assert await pool.run_once()
        assert not await pool.run_once()
    finally:
        await database.dispose()
    assert sorted(seen, key=lambda s: str(s[2])) == sorted(
        [(APP_ROLE, {project}, project) for project in projects], key=lambda s: str(s[2])
    )
