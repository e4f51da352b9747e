"""Search tests embed with a keyword embedder, so vector rankings are predictable."""

from __future__ import annotations

import pytest

from tests.search.corpus import KeywordEmbedders


@pytest.fixture
def embedders() -> KeywordEmbedders:
    return KeywordEmbedders()
