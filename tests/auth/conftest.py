"""Tests with keys required: the app is configured with ARBOR_ADMIN_KEY."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from app.config import Settings
from tests.auth.helpers import ADMIN_KEY


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        env="test",
        database_url=database_url,
        admin_key=SecretStr(ADMIN_KEY),
        rate_limit_per_minute=0,
    )
