"""Search tests embed with a keyword embedder, so vector rankings are predictable."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.search import service
from tests.search.corpus import KeywordEmbedders


@pytest.fixture
def embedders() -> KeywordEmbedders:
    return KeywordEmbedders()


@pytest.fixture(autouse=True)
def fresh_text_statistics_cache() -> Iterator[None]:
    """The search service caches chunk counts and term statistics per process."""
    service._text_statistics.clear()
    yield
    service._text_statistics.clear()
