"""Every statement a search or a read of a knowledge base or document sends names its project
beside each tenant table it reads.

Row-level security already keeps other projects' rows out; a sharded database (Citus,
distributed by `project_id`: docs/scaling.md) routes a statement to the one shard holding a
project only from a `project_id` condition written in the statement itself, and keeps a join
on one shard only when both sides are joined on `project_id` too.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.config import Settings
from tests.auth.helpers import bearer, create_key, create_project, upload
from tests.helpers import READ, statements_sent, unnamed_projects, wait_ready

# Statements of the app's own loops (the job queue, webhooks, the events feed), which run
# while the searches do and are not a search's.
BACKGROUND = re.compile(r"\b(jobs|webhooks|events|periodic_runs)\b")
# The unit of work's own statements, by the mapper's key alone: a loaded row's flushed UPDATE
# or DELETE, a refresh, a deferred column's load (docs/scaling.md: still by id).
BY_MAPPER_KEY = re.compile(
    r"^(?:UPDATE \w+ SET .*|DELETE FROM \w+|SELECT .* FROM \w+) "
    r"WHERE \w+\.id = \$\d+::UUID(?: AND \w+\.knowledge_base_id = \$\d+::UUID)?(?: FOR UPDATE)?$"
)


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Keys required, and ORM statements naming their project (`ARBOR_SQL_NAMES_PROJECT`)."""
    return settings.model_copy(update={"sql_names_project": True})


def test_the_checker_finds_a_table_read_without_its_project() -> None:
    assert unnamed_projects("SELECT 1 FROM chunks WHERE chunks.knowledge_base_id = $1") == [
        "chunks"
    ]
    assert unnamed_projects(
        "SELECT 1 FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.project_id = $1"
    ) == ["d"]
    assert (
        unnamed_projects("UPDATE documents SET status = $1 WHERE id = $2 AND project_id = $3") == []
    )
    assert unnamed_projects(
        "SELECT 1 FROM chunks c JOIN documents d ON d.id = c.document_id WHERE project_id = $1"
    ) == ["c", "d"]
    assert (
        unnamed_projects(
            "SELECT 1 FROM chunks AS known_0 JOIN documents ON documents.id = known_0.document_id "
            "AND documents.project_id = known_0.project_id WHERE known_0.project_id = $1"
        )
        == []
    )


async def searches(client: httpx.AsyncClient) -> tuple[str, str, str, list[dict[str, Any]]]:
    """A knowledge base of one project, with a document hidden from a read key, and the
    searches to run as that key: hybrid with context, a filter on document fields (chosen
    documents), a filter that matches nothing (its warnings), and a misspelled word (the
    trigram fallback)."""
    await create_project(client, "acme")
    await create_project(client, "other")
    write = (await create_key(client, "acme", scopes=["write"]))["key"]
    kb = (
        await client.post(
            "/v1/knowledge-bases",
            json={"name": "routed", "embedding": {"provider": "none", "dimensions": 4}},
            headers=bearer(write),
        )
    ).json()["id"]
    text = "Zebras graze on the savanna at dawn."
    readable = (await upload(client, write, kb, text, external_id="open"))["id"]
    await upload(
        client,
        write,
        kb,
        "Zebras hide their stripes from the lions.",
        external_id="secret",
        access={"principals": ["group:secret"]},
    )
    read = (await create_key(client, "acme", scopes=["read"], principals=["group:staff"]))["key"]
    vector = [1.0, 0.0, 0.0, 0.0]
    bodies: list[dict[str, Any]] = [
        {"query": "zebras", "vector": vector, "include": ["context"]},
        {"query": "zebras", "mode": "text", "filter": {"external_id": "open"}},
        {"query": "zebras", "mode": "text", "filter": {"metadata.colour": "blue"}},
        {"query": "zebrsa", "mode": "text"},
    ]
    return read, kb, readable, bodies


def check_paths(found: list[dict[str, Any]], readable: str) -> None:
    """Each search took the path it is there for."""
    hybrid, chosen, unmatched, misspelled = found
    assert [hit["doc_id"] for hit in hybrid["hits"]] == [readable]
    assert hybrid["hits"][0]["context"] is not None
    assert [hit["doc_id"] for hit in chosen["hits"]] == [readable]
    assert unmatched["hits"] == []
    assert unmatched["warnings"]
    assert misspelled["candidates"]["trigram"] == 1
    assert [hit["doc_id"] for hit in misspelled["hits"]] == [readable]


async def test_every_statement_of_a_search_or_a_read_names_its_project(
    admin: httpx.AsyncClient, app: FastAPI
) -> None:
    read, kb, readable, bodies = await searches(admin)
    with statements_sent(
        app.state.database.engine, lambda statement: not BACKGROUND.search(statement)
    ) as sent:
        found = []
        for body in bodies:
            response = await admin.post(
                f"/v1/knowledge-bases/{kb}/search", json=body, headers=bearer(read)
            )
            assert response.status_code == 200, response.text
            found.append(response.json())
        for path in ("", "/documents", f"/documents/{readable}", f"/documents/{readable}/tree"):
            response = await admin.get(f"/v1/knowledge-bases/{kb}{path}", headers=bearer(read))
            assert response.status_code == 200, (path, response.text)
    check_paths(found, readable)
    read_tables = [statement for statement, _ in sent if READ.search(statement)]
    assert len(read_tables) >= len(bodies)
    unnamed = {
        statement: missing for statement, _ in sent if (missing := unnamed_projects(statement))
    }
    assert unnamed == {}


async def test_every_statement_of_ingesting_and_removing_a_document_names_its_project(
    admin: httpx.AsyncClient, app: FastAPI
) -> None:
    """An upload through the job queue (parse, chunk, embed with the built-in model, store),
    enrichment, a reindex from the stored tree keeping it, chunks written through the chunk
    API, and deletes."""
    await create_project(admin, "acme")
    write = (await create_key(admin, "acme", scopes=["write"]))["key"]
    created = await admin.post(
        "/v1/knowledge-bases", json={"name": "written"}, headers=bearer(write)
    )
    kb = created.json()["id"]
    base = f"/v1/knowledge-bases/{kb}"
    with statements_sent(app.state.database.engine) as sent:
        document = await upload(
            admin, write, kb, "# Zebras\n\nZebras graze at dawn. Lions wait.", external_id="z"
        )
        tree = (await admin.get(f"{base}/documents/z/tree", headers=bearer(write))).json()
        enriched = await admin.put(
            f"{base}/documents/z/nodes/{tree['root']['node_id']}/enrichment",
            json={"summary": "About zebras."},
            headers=bearer(write),
        )
        assert enriched.status_code == 200, enriched.text
        reindexed = await admin.post(f"{base}/documents/z/reindex", headers=bearer(write))
        assert reindexed.status_code == 202, reindexed.text
        reread = await wait_ready(admin, f"{base}/documents/z", headers=bearer(write))
        assert reread["status"] == "ready", reread
        chunks = (await admin.get(f"{base}/documents/z/chunks", headers=bearer(write))).json()
        chunk_id = chunks["items"][0]["chunk_id"]
        put = await admin.put(
            f"{base}/chunks/{chunk_id}",
            json={"text": "Zebras graze at noon.", "doc_id": document["id"]},
            headers=bearer(write),
        )
        assert put.status_code == 200, put.text
        bulk = await admin.post(
            f"{base}/chunks/bulk",
            json={"chunks": [{"text": "Lions rest.", "doc_id": "loose"}]},
            headers=bearer(write),
        )
        assert bulk.status_code == 200, bulk.text
        # A backfill with nothing to embed still recounts its documents' vectors.
        started = await admin.post(f"{base}/chunks/embed", headers=bearer(write))
        assert started.status_code == 202, started.text
        job = await wait_ready(
            admin,
            f"{base}/jobs/{started.json()['job']['id']}",
            headers=bearer(write),
            until=("succeeded", "failed", "cancelled"),
        )
        assert job["status"] == "succeeded", job
        for path, status in ((f"{base}/documents/loose/chunks", 200), (f"{base}/documents/z", 204)):
            deleted = await admin.delete(path, headers=bearer(write))
            assert deleted.status_code == status, (path, deleted.text)
    gone = await admin.get(f"{base}/documents/z", headers=bearer(write))
    assert gone.status_code == 404
    statements = [" ".join(statement.split()) for statement, _ in sent]
    by_key = [statement for statement in statements if BY_MAPPER_KEY.match(statement)]
    assert any(statement.startswith("UPDATE documents SET") for statement in by_key)
    unnamed = {
        statement: missing
        for statement in statements
        if statement not in by_key and (missing := unnamed_projects(statement))
    }
    assert unnamed == {}
