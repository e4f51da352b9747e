"""Query vectors are kept per embedder and text: a repeated query skips the model."""

from __future__ import annotations

import numpy as np

from app.models import KnowledgeBase
from app.search.query_vectors import QueryVectorCache, query_cache, query_vector


class CountingEmbedder:
    def __init__(self, dimensions: int) -> None:
        self.dimensions = dimensions
        self.calls: list[str] = []

    def embed_query(self, text: str) -> np.ndarray:
        self.calls.append(text)
        return np.full(self.dimensions, float(len(self.calls)), dtype=np.float32)


def knowledge_base(dimensions: int) -> KnowledgeBase:
    return KnowledgeBase(
        name="kb", embedding_provider="local", embedding_model="m", embedding_dimensions=dimensions
    )


async def test_a_repeated_query_is_embedded_once_per_embedder() -> None:
    query_cache.clear()
    first, second = CountingEmbedder(4), CountingEmbedder(4)
    kb = knowledge_base(4)
    a, _ = await query_vector(lambda _kb: first, kb, "rivers", required=True)
    again, _ = await query_vector(lambda _kb: first, kb, "rivers", required=True)
    other_text, _ = await query_vector(lambda _kb: first, kb, "lakes", required=True)
    other_model, _ = await query_vector(lambda _kb: second, kb, "rivers", required=True)
    assert first.calls == ["rivers", "lakes"]
    assert second.calls == ["rivers"]
    assert a == again == [1.0] * 4
    assert other_text == [2.0] * 4
    assert other_model == [1.0] * 4
    # A caller that changes its copy does not change what the next search gets.
    assert a is not None
    a[0] = 9.0
    assert (await query_vector(lambda _kb: first, kb, "rivers", required=True))[0] == [1.0] * 4


def test_the_least_recently_used_vector_goes_first() -> None:
    cache = QueryVectorCache(2)
    embedder = object()
    cache.put(embedder, "a", [1.0])
    cache.put(embedder, "b", [2.0])
    assert cache.get(embedder, "a") == [1.0]  # now the most recent
    cache.put(embedder, "c", [3.0])
    assert cache.get(embedder, "b") is None
    assert cache.get(embedder, "a") == [1.0]
    assert cache.get(object(), "a") is None
