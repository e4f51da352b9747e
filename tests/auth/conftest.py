"""Tests with keys required: the app is configured with ARBOR_ADMIN_KEY."""

from __future__ import annotations

import httpx
import pytest
from pydantic import SecretStr

from app.config import Settings
from tests.auth.helpers import ADMIN_KEY, as_admin


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        env="test",
        database_url=database_url,
        admin_key=SecretStr(ADMIN_KEY),
        rate_limit_per_minute=0,
    )


@pytest.fixture
async def admin(client: httpx.AsyncClient) -> httpx.AsyncClient:
    """The client, acting as the instance admin unless a request names another key."""
    client.headers.update(as_admin())
    return client
