"""Every route x every kind of caller -> the exact status.

Columns: no key, an unknown key, an expired key, a revoked key, the read, write and admin keys
of project `alpha`, and the admin key of project `beta`. Every resource in the path belongs to
`alpha`. Routes that destroy what they address get a fresh resource per cell. A route missing
from TABLE fails `test_every_route_is_in_the_table`, so new routes cannot be forgotten.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.auth import keys
from app.auth.callers import Scope
from tests.auth.helpers import (
    PROBLEM,
    as_admin,
    bearer,
    create_key,
    create_project,
    expire_key,
    upload,
)

COLUMNS = (
    "no_key",
    "wrong_key",
    "expired_key",
    "revoked_key",
    "read",
    "write",
    "admin",
    "other_admin",
)
UNAUTHENTICATED = ("no_key", "wrong_key", "expired_key", "revoked_key")


@dataclass
class World:
    """Project alpha with a knowledge base, a ready document, a chunk, a job and a webhook;
    beta's admin."""

    client: httpx.AsyncClient
    keys: dict[str, str | None] = field(default_factory=dict)
    params: dict[str, str] = field(default_factory=dict)
    counter: itertools.count[int] = field(default_factory=itertools.count)

    @property
    def admin(self) -> str:
        key = self.keys["admin"]
        assert key is not None
        return key

    def unique(self, stem: str) -> str:
        return f"{stem}-{next(self.counter)}"

    async def fresh_kb(self) -> dict[str, str]:
        response = await self.client.post(
            "/v1/knowledge-bases", json={"name": self.unique("spare")}, headers=bearer(self.admin)
        )
        assert response.status_code == 201, response.text
        return {"kb": response.json()["id"]}

    async def fresh_doc(self) -> dict[str, str]:
        document = await upload(
            self.client, self.admin, self.params["kb"], f"# Spare\n\n{self.unique('spare')} text."
        )
        return {"doc": document["id"]}

    async def fresh_key(self) -> dict[str, str]:
        created = await create_key(self.client, "alpha", scopes=["read"])
        return {"key_id": created["id"]}

    async def fresh_source(self) -> dict[str, str]:
        response = await self.client.post(
            f"/v1/knowledge-bases/{self.params['kb']}/sources",
            json=_source(self),
            headers=bearer(self.admin),
        )
        assert response.status_code == 201, response.text
        return {"source": response.json()["id"]}

    async def fresh_webhook(self) -> dict[str, str]:
        response = await self.client.post(
            "/v1/webhooks", json=_webhook(self), headers=bearer(self.admin)
        )
        assert response.status_code == 201, response.text
        return {"webhook_id": response.json()["id"]}


Body = Callable[[World], Any]
Fresh = Callable[[World], Awaitable[dict[str, str]]]


@dataclass(frozen=True)
class Case:
    """What a route needs and answers: `scope` None means open to everyone."""

    scope: Scope | None
    ok: int
    # Beta's admin: 404 for anything addressed in alpha; its own answer for project-wide routes.
    other_admin: int = 404
    # Only admins of the default project (instance admins) may call it.
    instance_only: bool = False
    body: Body | None = None
    fresh: Fresh | None = None
    # What callers without a valid key get: Dify's API answers 403 (its codes 1001/1002).
    unauthenticated: int = 401
    # The media type of its errors: Dify's own JSON objects on the Dify route.
    errors_as: str = PROBLEM


def _kb_name(world: World) -> dict[str, str]:
    return {"name": world.unique("made")}


def _document(world: World) -> dict[str, str]:
    return {"text": f"# Made\n\n{world.unique('document')} about otters."}


def _documents(world: World) -> dict[str, list[dict[str, str]]]:
    return {"documents": [_document(world), _document(world)]}


def _delete_nothing(world: World) -> dict[str, object]:
    return {"filter": {"external_id": world.unique("absent")}}


def _enrichment(world: World) -> dict[str, Any]:
    return {"nodes": [{"node_id": world.params["node_id"], "enrichment": {"keywords": ["otter"]}}]}


def _import(world: World) -> dict[str, Any]:
    return {"chunks": [{"text": f"{world.unique('imported')} about otters."}]}


def _chunk(world: World) -> dict[str, str]:
    return {"doc_id": "manual", "text": f"{world.unique('chunk')} about otters."}


def _bulk(world: World) -> dict[str, list[dict[str, str]]]:
    return {"chunks": [_chunk(world)]}


def _search(world: World) -> dict[str, str]:
    return {"query": "otters"}


def _parse(world: World) -> dict[str, str]:
    return {"text": "# Otters\n\nOtters hold hands."}


def _multi(world: World) -> dict[str, Any]:
    return {"query": "otters", "knowledge_bases": [world.params["kb"]]}


def _key(world: World) -> dict[str, Any]:
    return {"name": world.unique("key"), "scopes": ["read"]}


def _webhook(world: World) -> dict[str, str]:
    # Nothing listens there: deliveries fail without leaving the machine.
    return {"url": f"http://127.0.0.1:9/{world.unique('hook')}"}


def _source(world: World) -> dict[str, str]:
    return {"name": world.unique("records"), "kind": "records"}


def _records(world: World) -> dict[str, Any]:
    return {"records": [{"op": "upsert", "record_id": world.unique("r"), "content": "Otters."}]}


def _evaluation(world: World) -> dict[str, Any]:
    return {
        "queries": [{"_id": "q1", "text": "otters"}],
        "qrels": [{"query_id": "q1", "doc_id": world.params["doc"], "score": 1}],
    }


def _tool_search(world: World) -> dict[str, Any]:
    return {"query": "otters", "knowledge_bases": [world.params["kb"]]}


def _dify(world: World) -> dict[str, Any]:
    return {
        "knowledge_id": world.params["kb"],
        "query": "otters",
        "retrieval_setting": {"top_k": 3, "score_threshold": 0},
    }


KB = "/v1/knowledge-bases/{kb}"
DOC = KB + "/documents/{doc}"
SOURCE = KB + "/sources/{source}"
HOOK = "/v1/webhooks/{webhook_id}"
R, W, A = Scope.READ, Scope.WRITE, Scope.ADMIN

TABLE: dict[tuple[str, str], Case] = {
    ("GET", "/healthz"): Case(None, 200),
    ("GET", "/readyz"): Case(None, 200),
    ("GET", "/v1/knowledge-bases"): Case(R, 200, other_admin=200),
    ("POST", "/v1/knowledge-bases"): Case(W, 201, other_admin=201, body=_kb_name),
    ("GET", KB): Case(R, 200),
    ("PATCH", KB): Case(W, 200, body=lambda w: {"description": "changed"}),
    ("DELETE", KB): Case(W, 204, fresh=World.fresh_kb),
    ("POST", KB + "/copy"): Case(W, 202, body=_kb_name),
    ("GET", KB + "/documents"): Case(R, 200),
    ("POST", KB + "/documents"): Case(W, 202, body=_document),
    ("POST", KB + "/documents/batch"): Case(W, 202, body=_documents),
    ("POST", KB + "/documents/delete"): Case(W, 200, body=_delete_nothing),
    ("GET", DOC): Case(R, 200),
    ("PATCH", DOC): Case(W, 200, body=lambda w: {"metadata": {"changed": w.unique("v")}}),
    ("DELETE", DOC): Case(W, 204, fresh=World.fresh_doc),
    ("GET", DOC + "/tree"): Case(R, 200),
    ("GET", DOC + "/nodes/{node_id}"): Case(R, 200),
    ("GET", DOC + "/nodes/{node_id}/ancestors"): Case(R, 200),
    ("PUT", DOC + "/nodes/{node_id}/enrichment"): Case(
        W, 200, body=lambda w: {"summary": "Otters."}
    ),
    ("DELETE", DOC + "/nodes/{node_id}/enrichment"): Case(W, 204),
    ("PATCH", DOC + "/enrichment"): Case(W, 200, body=_enrichment),
    ("GET", DOC + "/export"): Case(R, 200),
    ("POST", KB + "/documents/import"): Case(W, 201, body=_import),
    ("GET", DOC + "/chunks"): Case(R, 200),
    ("POST", DOC + "/reindex"): Case(W, 202, fresh=World.fresh_doc),
    ("DELETE", DOC + "/chunks"): Case(W, 200, fresh=World.fresh_doc),
    ("GET", KB + "/chunks"): Case(R, 200),
    ("DELETE", KB + "/chunks"): Case(W, 200, fresh=World.fresh_kb),
    ("POST", KB + "/chunks/bulk"): Case(W, 200, body=_bulk),
    ("GET", KB + "/chunks/count"): Case(R, 200),
    ("GET", KB + "/chunks/{chunk_id}"): Case(R, 200),
    ("PUT", KB + "/chunks/{chunk_id}"): Case(
        W, 201, body=_chunk, fresh=lambda w: _ready({"chunk_id": str(uuid.uuid4())})
    ),
    ("POST", KB + "/chunks/embed"): Case(W, 202),
    ("POST", KB + "/text-statistics/refresh"): Case(W, 202),
    ("GET", KB + "/text-statistics"): Case(R, 200),
    ("GET", KB + "/jobs/{job_id}"): Case(R, 200),
    ("POST", KB + "/search"): Case(R, 200, body=_search),
    ("GET", KB + "/graph/entities"): Case(R, 200),
    # The world's knowledge base has no graph: every entity id is unknown.
    ("GET", KB + "/graph/entities/{entity_id}"): Case(R, 404),
    ("GET", KB + "/graph/relations"): Case(R, 200),
    ("POST", KB + "/graph/search"): Case(R, 200, body=_search),
    ("GET", KB + "/graph/status"): Case(R, 200),
    ("POST", KB + "/chunks/context"): Case(
        R, 200, body=lambda w: {"chunk_ids": [w.params["chunk_id"]]}
    ),
    ("POST", "/v1/search"): Case(R, 200, body=_multi),
    ("POST", KB + "/answer"): Case(R, 200, body=_search),
    ("POST", "/v1/answer"): Case(R, 200, body=_multi),
    ("POST", "/v1/parse"): Case(R, 200, other_admin=200, body=_parse),
    ("POST", KB + "/embed"): Case(R, 200, body=lambda w: {"texts": ["otters"]}),
    ("GET", "/v1/projects"): Case(A, 200, other_admin=200),
    ("POST", "/v1/projects"): Case(A, 201, instance_only=True, body=_kb_name),
    ("GET", "/v1/projects/{project}"): Case(A, 200),
    ("GET", "/v1/projects/{project}/api-keys"): Case(A, 200),
    ("POST", "/v1/projects/{project}/api-keys"): Case(A, 201, body=_key),
    ("DELETE", "/v1/projects/{project}/api-keys/{key_id}"): Case(A, 204, fresh=World.fresh_key),
    ("GET", "/v1/audit"): Case(A, 200, other_admin=200),
    ("GET", "/v1/events"): Case(R, 200, other_admin=200),
    ("GET", "/v1/webhooks"): Case(A, 200, other_admin=200),
    ("POST", "/v1/webhooks"): Case(A, 201, other_admin=201, body=_webhook),
    ("GET", HOOK): Case(A, 200),
    ("PATCH", HOOK): Case(A, 200, body=lambda w: {"description": "changed"}),
    ("DELETE", HOOK): Case(A, 204, fresh=World.fresh_webhook),
    ("POST", HOOK + "/rotate-secret"): Case(A, 200),
    ("POST", KB + "/sources"): Case(A, 201, body=_source),
    ("GET", KB + "/sources"): Case(R, 200),
    ("GET", SOURCE): Case(R, 200),
    ("PATCH", SOURCE): Case(A, 200, body=lambda w: {"metadata": {"team": w.unique("t")}}),
    ("DELETE", SOURCE): Case(A, 204, fresh=World.fresh_source),
    ("POST", SOURCE + "/sync"): Case(W, 200, body=lambda w: {"dry_run": True}),
    ("GET", SOURCE + "/runs"): Case(R, 200),
    ("GET", SOURCE + "/runs/{run_id}"): Case(R, 200),
    ("GET", SOURCE + "/health"): Case(R, 200),
    ("POST", SOURCE + "/records"): Case(W, 200, body=_records),
    ("POST", KB + "/evaluations"): Case(W, 202, body=_evaluation),
    ("GET", KB + "/evaluations"): Case(R, 200),
    ("GET", KB + "/evaluations/{evaluation_id}"): Case(R, 200),
    ("GET", KB + "/analytics"): Case(A, 200),
    ("GET", "/metrics"): Case(A, 200, other_admin=200),
    ("GET", "/v1/tools"): Case(R, 200, other_admin=200),
    ("POST", "/v1/tools/{name}"): Case(R, 200, body=_tool_search),
    ("POST", "/compat/dify/retrieval"): Case(
        R, 200, body=_dify, unauthenticated=403, errors_as="application/json"
    ),
}


async def _ready(params: dict[str, str]) -> dict[str, str]:
    return params


def expected(case: Case, column: str) -> int:
    if case.scope is None:
        return case.ok
    if column in UNAUTHENTICATED:
        return case.unauthenticated
    if column == "other_admin":
        return 403 if case.instance_only else case.other_admin
    granted = {"read": {R}, "write": {R, W}, "admin": {R, W, A}}[column]
    if case.scope not in granted or case.instance_only:
        return 403  # alpha's admin administers alpha, not the instance
    return case.ok


async def build_world(client: httpx.AsyncClient, app: FastAPI) -> World:
    world = World(client)
    await create_project(client, "alpha")
    await create_project(client, "beta")
    admin = await create_key(client, "alpha", name="alpha-admin", scopes=["admin"])
    read = await create_key(client, "alpha", name="alpha-read", scopes=["read"])
    write = await create_key(client, "alpha", name="alpha-write", scopes=["write"])
    expired = await create_key(client, "alpha", name="alpha-expired", scopes=["admin"])
    await expire_key(app, expired["id"])
    revoked = await create_key(client, "alpha", name="alpha-revoked", scopes=["admin"])
    response = await client.delete(
        f"/v1/projects/alpha/api-keys/{revoked['id']}", headers=as_admin()
    )
    assert response.status_code == 204
    other = await create_key(client, "beta", name="beta-admin", scopes=["admin"])
    world.keys = {
        "no_key": None,
        "wrong_key": keys.generate()[0],
        "expired_key": expired["key"],
        "revoked_key": revoked["key"],
        "read": read["key"],
        "write": write["key"],
        "admin": admin["key"],
        "other_admin": other["key"],
    }
    response = await client.post(
        "/v1/knowledge-bases", json={"name": "docs"}, headers=bearer(world.admin)
    )
    assert response.status_code == 201, response.text
    kb = response.json()["id"]
    world.params = {"kb": kb, "project": "alpha"}
    document = await upload(
        client, world.admin, kb, "# Otters\n\nOtters hold hands.\n\n## Diet\n\nFish and crabs."
    )
    doc = document["id"]
    tree = (
        await client.get(
            f"/v1/knowledge-bases/{kb}/documents/{doc}/tree", headers=bearer(world.admin)
        )
    ).json()
    node = tree["root"]["children"][0]["node_id"]
    chunks = (
        await client.get(
            f"/v1/knowledge-bases/{kb}/documents/{doc}/chunks", headers=bearer(world.admin)
        )
    ).json()
    job = (
        await client.post(f"/v1/knowledge-bases/{kb}/chunks/embed", headers=bearer(world.admin))
    ).json()
    world.params |= {
        "doc": doc,
        "node_id": node,
        "chunk_id": chunks["items"][0]["chunk_id"],
        "job_id": job["job"]["id"],
        "key_id": str(uuid.uuid4()),
        "entity_id": str(uuid.uuid4()),
    }
    world.params |= await world.fresh_webhook()
    world.params |= await world.fresh_source()
    world.params["name"] = "search_knowledge"
    run = await client.post(
        f"/v1/knowledge-bases/{kb}/sources/{world.params['source']}/sync",
        json={},
        headers=bearer(world.admin),
    )
    assert run.status_code == 202, run.text
    evaluation = await client.post(
        f"/v1/knowledge-bases/{kb}/evaluations",
        json=_evaluation(world),
        headers=bearer(world.admin),
    )
    assert evaluation.status_code == 202, evaluation.text
    world.params |= {"run_id": run.json()["id"], "evaluation_id": evaluation.json()["id"]}
    return world


async def test_every_route_is_in_the_table(app: FastAPI) -> None:
    served = {
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        for method in operations
    }
    assert served - set(TABLE) == set(), "add the new routes to TABLE"
    assert set(TABLE) - served == set(), "TABLE names routes the app does not serve"


@pytest.mark.parametrize("column", COLUMNS)
async def test_status_matrix(client: httpx.AsyncClient, app: FastAPI, column: str) -> None:
    world = await build_world(client, app)
    got: dict[tuple[str, str], int] = {}
    want: dict[tuple[str, str], int] = {}
    for (method, template), case in TABLE.items():
        params = dict(world.params)
        if case.fresh is not None:
            params |= await case.fresh(world)
        response = await client.request(
            method,
            template.format(**params),
            json=case.body(world) if case.body is not None else None,
            headers=bearer(world.keys[column]),
        )
        got[(method, template)] = response.status_code
        want[(method, template)] = expected(case, column)
        if response.status_code >= 400:
            assert response.headers["content-type"] == case.errors_as, (method, template)
        if response.status_code == 401:
            assert response.headers["www-authenticate"].startswith("Bearer")
    wrong = {route: (got[route], want[route]) for route in TABLE if got[route] != want[route]}
    assert wrong == {}, f"{column}: route -> (got, expected)"
