"""Liveness and readiness."""

from __future__ import annotations

import asyncpg
import httpx

from app.db.urls import asyncpg_dsn


async def test_healthz(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_readyz_when_ready(client: httpx.AsyncClient) -> None:
    response = await client.get("/readyz")
    assert response.status_code == 200, response.text
    checks = {check["name"]: check["ok"] for check in response.json()["checks"]}
    assert checks["database"] is True
    assert checks["migrations"] is True


async def test_readyz_reports_migrations_behind(
    client: httpx.AsyncClient, database_url: str
) -> None:
    connection = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        await connection.execute("UPDATE alembic_version SET version_num = 'old'")
    finally:
        await connection.close()
    response = await client.get("/readyz")
    assert response.status_code == 503
    # A problem like every other error, its checks an extension member.
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["type"] == "https://arbor.dev/problems/not-ready"
    assert (problem["status"], problem["instance"]) == (503, "/readyz")
    assert "migrations" in problem["detail"]
    failing = [c for c in problem["checks"] if not c["ok"]]
    assert [c["name"] for c in failing] == ["migrations"]
    assert "old" in failing[0]["detail"]
