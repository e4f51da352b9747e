"""Helpers for tests with keys required: projects, keys, and requests made as a key."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import text

ADMIN_KEY = "arbor-test-admin-key-" + "x7" * 20
PROBLEM = "application/problem+json"


def bearer(key: str | None, **headers: str) -> dict[str, str]:
    found = {name.replace("_", "-"): value for name, value in headers.items()}
    if key is not None:
        found["Authorization"] = f"Bearer {key}"
    return found


def as_admin(project: str | None = None) -> dict[str, str]:
    """The configured admin key, acting in `project` (default: the default project)."""
    return bearer(ADMIN_KEY) | ({"X-Arbor-Project": project} if project else {})


async def create_project(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    response = await client.post("/v1/projects", json={"name": name}, headers=as_admin())
    assert response.status_code == 201, response.text
    return dict(response.json())


async def create_key(
    client: httpx.AsyncClient, project: str, *, as_key: str = ADMIN_KEY, **body: Any
) -> dict[str, Any]:
    """Create a key in `project`; the answer includes the key itself under `key`."""
    body.setdefault("name", "test-key")
    response = await client.post(
        f"/v1/projects/{project}/api-keys", json=body, headers=bearer(as_key)
    )
    assert response.status_code == 201, response.text
    return dict(response.json())


async def expire_key(app: FastAPI, key_id: str) -> None:
    """Move a key's expiry into the past (the API refuses to create one already expired)."""
    async with app.state.database.transaction() as session:
        await session.execute(
            text("UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = :id"),
            {"id": uuid.UUID(key_id)},
        )


async def upload(
    client: httpx.AsyncClient, key: str, kb: str, text_: str, **body: Any
) -> dict[str, Any]:
    """Upload a text document and wait until it is ready."""
    response = await client.post(
        f"/v1/knowledge-bases/{kb}/documents",
        params={"wait": "true"},
        json={"text": text_, **body},
        headers=bearer(key),
    )
    assert response.status_code in (200, 202), response.text
    document = dict(response.json())
    assert document["status"] == "ready", document
    return document
