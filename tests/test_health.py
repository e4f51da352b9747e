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
    failing = [c for c in response.json()["checks"] if not c["ok"]]
    assert [c["name"] for c in failing] == ["migrations"]
    assert "old" in failing[0]["detail"]
