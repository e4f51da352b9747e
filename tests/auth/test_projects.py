"""Projects and API keys: creation, listing, revocation, limits, acting in another project."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import text

from tests.auth.helpers import ADMIN_KEY, as_admin, bearer, create_key, create_project
from tests.helpers import drop_pooled_connections, statements_sent, stop_background_loops


async def test_projects_are_created_by_instance_admins(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/v1/projects", json={"name": "acme", "description": "d"}, headers=as_admin()
    )
    assert created.status_code == 201
    assert created.headers["location"] == f"/v1/projects/{created.json()['id']}"
    duplicate = await client.post("/v1/projects", json={"name": "acme"}, headers=as_admin())
    assert duplicate.status_code == 409
    for name in ("", "Acme", "-x", "a" * 65, created.json()["id"]):
        bad = await client.post("/v1/projects", json={"name": name}, headers=as_admin())
        assert bad.status_code == 422, name
    listed = (await client.get("/v1/projects", headers=as_admin())).json()
    assert [p["name"] for p in listed["items"]] == ["default", "acme"]
    by_id = await client.get(f"/v1/projects/{created.json()['id']}", headers=as_admin())
    assert by_id.json()["name"] == "acme"
    # An admin key of the default project is an instance admin too.
    root = await create_key(client, "default", scopes=["admin"])
    other = await client.post("/v1/projects", json={"name": "other"}, headers=bearer(root["key"]))
    assert other.status_code == 201
    # A project's own admin manages that project only.
    acme_admin = await create_key(client, "acme", scopes=["admin"])
    refused = await client.post(
        "/v1/projects", json={"name": "mine"}, headers=bearer(acme_admin["key"])
    )
    assert refused.status_code == 403
    own = (await client.get("/v1/projects", headers=bearer(acme_admin["key"]))).json()
    assert [p["name"] for p in own["items"]] == ["acme"]
    assert own["total"] == 1


async def test_knowledge_base_names_are_unique_per_project(client: httpx.AsyncClient) -> None:
    for name in ("acme", "globex"):
        await create_project(client, name)
        response = await client.post(
            "/v1/knowledge-bases", json={"name": "docs"}, headers=as_admin(name)
        )
        assert response.status_code == 201
    again = await client.post(
        "/v1/knowledge-bases", json={"name": "docs"}, headers=as_admin("acme")
    )
    assert again.status_code == 409
    in_default = await client.get("/v1/knowledge-bases", headers=as_admin())
    assert in_default.json()["items"] == []
    acme = (await client.get("/v1/knowledge-bases/docs", headers=as_admin("acme"))).json()
    globex = (await client.get("/v1/knowledge-bases/docs", headers=as_admin("globex"))).json()
    assert acme["id"] != globex["id"]


async def test_keys_are_shown_once_and_stored_hashed(client: httpx.AsyncClient) -> None:
    project = await create_project(client, "acme")
    created = await create_key(
        client, "acme", name="gateway", scopes=["read", "write"], delegate=True,
        principals=["group:b", "group:a", "group:a"],
    )  # fmt: skip
    assert created["key"].startswith(created["prefix"])
    assert created["scopes"] == ["read", "write"]
    assert created["principals"] == ["group:a", "group:b"]
    assert created["project_id"] == project["id"]
    assert created["created_by"] == "ARBOR_ADMIN_KEY"
    assert created["status"] == "active"
    listed = (await client.get("/v1/projects/acme/api-keys", headers=as_admin())).json()
    assert [k["id"] for k in listed["items"]] == [created["id"]]
    assert "key" not in listed["items"][0]
    assert created["key"] not in str(listed)


async def test_revoked_and_expired_keys_stop_at_once(client: httpx.AsyncClient) -> None:
    await create_project(client, "acme")
    key = await create_key(client, "acme", scopes=["read"])
    assert (await client.get("/v1/knowledge-bases", headers=bearer(key["key"]))).status_code == 200
    revoked = await client.delete(f"/v1/projects/acme/api-keys/{key['id']}", headers=as_admin())
    assert revoked.status_code == 204
    assert (await client.get("/v1/knowledge-bases", headers=bearer(key["key"]))).status_code == 401
    again = await client.delete(f"/v1/projects/acme/api-keys/{key['id']}", headers=as_admin())
    assert again.status_code == 204
    listed = (await client.get("/v1/projects/acme/api-keys", headers=as_admin())).json()
    assert listed["items"][0]["status"] == "revoked"
    unknown = await client.delete(
        "/v1/projects/acme/api-keys/00000000-0000-0000-0000-000000000000", headers=as_admin()
    )
    assert unknown.status_code == 404
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    refused = await client.post(
        "/v1/projects/acme/api-keys",
        json={"name": "old", "scopes": ["read"], "expires_at": past},
        headers=as_admin(),
    )
    assert refused.status_code == 422
    naive = await client.post(
        "/v1/projects/acme/api-keys",
        json={"name": "naive", "scopes": ["read"], "expires_at": "2999-01-01T00:00:00"},
        headers=as_admin(),
    )
    assert naive.status_code == 422


async def known_read_key(client: httpx.AsyncClient) -> dict[str, Any]:
    """A read key of a new project, used once, so its process knows it."""
    await create_project(client, "acme")
    key = await create_key(client, "acme", scopes=["read"])
    assert (await client.get("/v1/knowledge-bases", headers=bearer(key["key"]))).status_code == 200
    return key


async def test_a_known_key_is_checked_live_without_a_lookup_and_revocation_holds_at_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    key = await known_read_key(client)
    headers = bearer(key["key"])
    with statements_sent(app.state.database.engine, lambda s: "api_keys" in s) as sent:
        assert (await client.get("/v1/knowledge-bases", headers=headers)).status_code == 200
        wrong = bearer(key["key"][:-1] + ("A" if key["key"][-1] != "A" else "B"))
        assert (await client.get("/v1/knowledge-bases", headers=wrong)).status_code == 401
    # One liveness check for the known key, none for the wrong secret, no lookup (no join).
    assert [("revoked_at IS NULL" in s, "JOIN" in s) for s, _ in sent] == [(True, False)], sent
    # Revoked straight in the database, as another process's DELETE would: the next request.
    async with app.state.database.transaction() as session:
        await session.execute(
            text("UPDATE api_keys SET revoked_at = now() WHERE id = :id"),
            {"id": uuid.UUID(key["id"])},
        )
    refused = await client.get("/v1/knowledge-bases", headers=headers)
    assert refused.status_code == 401
    assert refused.headers["www-authenticate"] == 'Bearer error="invalid_token"'


async def test_a_known_key_meeting_a_lost_connection_is_503_and_the_next_request_recovers(
    client: httpx.AsyncClient, database_url: str
) -> None:
    key = await known_read_key(client)
    headers = bearer(key["key"])
    await stop_background_loops()
    assert await drop_pooled_connections(database_url) >= 1
    # The key's liveness check is the request's first statement: it meets the dead connection.
    lost = await client.get("/v1/knowledge-bases", headers=headers)
    assert lost.status_code == 503, lost.text
    assert lost.json()["type"] == "https://arbor.dev/problems/database-unavailable"
    assert (await client.get("/v1/knowledge-bases", headers=headers)).status_code == 200


async def test_malformed_credentials_are_401(client: httpx.AsyncClient) -> None:
    for headers in (
        {"Authorization": "Bearer"},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"Authorization": "Bearer not-a-key"},
        {"Authorization": f"Bearer {ADMIN_KEY}x"},
    ):
        response = await client.get("/v1/knowledge-bases", headers=headers)
        assert response.status_code == 401, headers
        assert response.headers["www-authenticate"].startswith("Bearer")
    assert (await client.get("/healthz")).status_code == 200


async def test_keys_limited_to_knowledge_bases(client: httpx.AsyncClient) -> None:
    await create_project(client, "acme")
    ids = {}
    for name in ("open", "closed"):
        response = await client.post(
            "/v1/knowledge-bases", json={"name": name}, headers=as_admin("acme")
        )
        ids[name] = response.json()["id"]
    limited = (await create_key(client, "acme", scopes=["write"], knowledge_bases=["open"]))["key"]
    listed = (await client.get("/v1/knowledge-bases", headers=bearer(limited))).json()
    assert [kb["name"] for kb in listed["items"]] == ["open"]
    assert listed["total"] == 1
    for ref in ("closed", ids["closed"]):
        response = await client.get(f"/v1/knowledge-bases/{ref}", headers=bearer(limited))
        assert response.status_code == 404
    multi = await client.post(
        "/v1/search",
        json={"query": "x", "knowledge_bases": ["open", "closed"]},
        headers=bearer(limited),
    )
    assert multi.status_code == 404
    created = await client.post(
        "/v1/knowledge-bases", json={"name": "new"}, headers=bearer(limited)
    )
    assert created.status_code == 403
    updated = await client.patch(
        f"/v1/knowledge-bases/{ids['open']}", json={"title": "Open"}, headers=bearer(limited)
    )
    assert updated.status_code == 200
    for body in (
        {"name": "k", "scopes": ["read"], "knowledge_bases": ["missing"]},
        {"name": "k", "scopes": ["admin"], "knowledge_bases": ["open"]},
        {"name": "k", "scopes": ["admin"], "principals": ["group:x"]},
        {"name": "k", "scopes": []},
        {"name": "k", "scopes": ["superuser"]},
    ):
        response = await client.post("/v1/projects/acme/api-keys", json=body, headers=as_admin())
        assert response.status_code == 422, body


async def test_project_admins_manage_their_own_keys(client: httpx.AsyncClient) -> None:
    await create_project(client, "acme")
    await create_project(client, "globex")
    acme_admin = (await create_key(client, "acme", scopes=["admin"]))["key"]
    made = await client.post(
        "/v1/projects/acme/api-keys",
        json={"name": "reader", "scopes": ["read"]},
        headers=bearer(acme_admin),
    )
    assert made.status_code == 201
    assert made.json()["created_by"] == "test-key"
    elsewhere = await client.post(
        "/v1/projects/globex/api-keys",
        json={"name": "reader", "scopes": ["read"]},
        headers=bearer(acme_admin),
    )
    assert elsewhere.status_code == 404
    # A key may name its own project in the header, never another one.
    assert (
        await client.get("/v1/knowledge-bases", headers=bearer(acme_admin, X_Arbor_Project="acme"))
    ).status_code == 200
    assert (
        await client.get(
            "/v1/knowledge-bases", headers=bearer(acme_admin, X_Arbor_Project="globex")
        )
    ).status_code == 404
