"""Agent interfaces with keys required: a corpus with an access list, and keys of each kind."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from app.config import Settings
from tests.auth.helpers import ADMIN_KEY, bearer, create_key, create_project, upload

SECRET = {"principals": ["group:secret"]}


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        env="test",
        database_url=database_url,
        admin_key=SecretStr(ADMIN_KEY),
        rate_limit_per_minute=0,
    )


@pytest.fixture
async def corpus(client: httpx.AsyncClient) -> dict[str, Any]:
    """Project acme: `handbook` with a public and a secret document, `other` with one more."""
    await create_project(client, "acme")
    write = (await create_key(client, "acme", scopes=["write"], principals=["group:secret"]))["key"]
    for name in ("handbook", "other"):
        created = await client.post(
            "/v1/knowledge-bases", json={"name": name}, headers=bearer(write)
        )
        assert created.status_code == 201, created.text
    public = await upload(
        client,
        write,
        "handbook",
        "# Leave\n\n## Annual leave\n\nStaff take twenty-five days of annual leave a year.",
        title="Leave policy",
        external_id="leave",
        metadata={"team": "hr", "year": 2024},
    )
    secret = await upload(
        client,
        write,
        "handbook",
        "# Bonus\n\nExecutives take ten more days of annual leave, in secret.",
        title="Executive bonus",
        external_id="bonus",
        access=SECRET,
    )
    await upload(client, write, "other", "Annual leave is also described here.", title="Other")
    keys = {
        "staff": await create_key(client, "acme", scopes=["read"], principals=["group:staff"]),
        "secret": await create_key(client, "acme", scopes=["read"], principals=["group:secret"]),
        "gateway": await create_key(client, "acme", scopes=["read"], delegate=True),
        "limited": await create_key(
            client, "acme", scopes=["read"], principals=["group:secret"], knowledge_bases=["other"]
        ),
    }
    return {
        "public": public["id"],
        "secret": secret["id"],
        "keys": {name: created["key"] for name, created in keys.items()},
    }
