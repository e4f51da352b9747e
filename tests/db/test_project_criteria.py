"""With `ARBOR_SQL_NAMES_PROJECT`, every ORM statement of a session scoped to a project names
the project on each tenant table it reads or changes (app/db/project_criteria.py); the
service's own unscoped work does not, nor does any statement with the setting off."""

from __future__ import annotations

import uuid

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, exists, func, select, update
from sqlalchemy.orm import aliased

from app.config import Settings
from app.db.engine import Database
from app.models import Chunk, Document, KnowledgeBase
from tests.helpers import READ, statements_sent, unnamed_projects
from tests.search.corpus import create_kb


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"sql_names_project": True})


async def test_orm_statements_of_a_scoped_session_name_its_project(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    created = await create_kb(client, "scoped")
    uploaded = await client.post(
        "/v1/knowledge-bases/scoped/documents",
        params={"wait": "true"},
        json={"text": "Roots hold the soil against the river."},
    )
    assert uploaded.json()["status"] == "ready", uploaded.text
    kb_id, document_id = uuid.UUID(created["id"]), uuid.UUID(uploaded.json()["id"])
    database = app.state.database
    async with database.transaction() as session:
        kb = await session.get(KnowledgeBase, kb_id)
        assert kb is not None
        project_id = kb.project_id
    other = aliased(Chunk)
    with statements_sent(database.engine) as sent:
        async with database.transaction(project_id=project_id) as session:
            document = await session.get(Document, document_id)
            assert document is not None
            joined = await session.scalars(
                select(Document.id)
                .join(Chunk, Chunk.document_id == Document.id)
                .where(Document.knowledge_base_id == kb_id)
            )
            assert list(joined) == [document_id]
            held = await session.scalar(
                select(func.count())
                .select_from(Document)
                .where(exists().where(other.document_id == Document.id))
            )
            assert held == 1
            await session.execute(
                update(Document).where(Document.id == document_id).values(title="Roots")
            )
            await session.execute(delete(Chunk).where(Chunk.document_id == uuid.uuid4()))
    # Those over tenant tables: the app's own loops send theirs meanwhile (the vector index
    # upkeep reads the catalog about `chunks`).
    statements = [s for s, _ in sent if READ.search(s)]
    assert len(statements) == 5
    assert {s: unnamed_projects(s) for s in statements} == {s: [] for s in statements}
    # The scope's own project, as a parameter of each.
    assert all(project_id in tuple(values) for s, values in sent if s in statements)

    with statements_sent(database.engine) as unscoped:
        async with database.transaction() as session:
            assert await session.get(Document, document_id) is not None
    read = [s for s, _ in unscoped if "FROM documents" in s]
    assert read
    assert all("project_id =" not in s for s in read)


async def test_with_the_setting_off_no_statement_is_changed(
    client: httpx.AsyncClient, app: FastAPI, settings: Settings, database_url: str
) -> None:
    created = await create_kb(client, "plain")
    database = Database(database_url, settings.model_copy(update={"sql_names_project": False}))
    try:
        async with database.transaction() as session:
            kb = await session.get(KnowledgeBase, uuid.UUID(created["id"]))
            assert kb is not None
            project_id = kb.project_id
        with statements_sent(database.engine) as sent:
            async with database.transaction(project_id=project_id) as session:
                assert await session.get(KnowledgeBase, kb.id) is not None
        read = [s for s, _ in sent if "FROM knowledge_bases" in s]
        assert read
        assert unnamed_projects(read[0]) == ["knowledge_bases"]
    finally:
        await database.dispose()
