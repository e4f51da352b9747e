"""Each mode ranks a small crafted corpus as its score definition says."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.search.corpus import ChunkSpec, add_document, create_kb, search, titles, unit

# Cosines against the query vector Q = e2: Alpha 0, Beta 0.6, Gamma 1, Delta about -0.98.
CORPUS = [
    ("Alpha", "solar panels convert sunlight into electricity", unit([1, 0, 0])),
    ("Beta", "wind turbines generate electricity from moving wind", unit([0.8, 0.6, 0])),
    ("Gamma", "hydroelectric dams store water in reservoirs", unit([0, 1, 0])),
    ("Delta", "geothermal heat pumps warm houses", unit([0, -1, 0.2])),
]
Q = unit([0, 1, 0])


@pytest.fixture
async def kb(client: httpx.AsyncClient, app: FastAPI) -> dict[str, Any]:
    created = await create_kb(client, "energy")
    for title, text, vector in CORPUS:
        await add_document(app, created, [ChunkSpec(text, vector=vector)], title=title)
    return created


async def test_vector_mode_ranks_by_cosine_similarity(client: httpx.AsyncClient, kb: Any) -> None:
    found = await search(client, kb, vector=Q, mode="vector")
    assert titles(found) == ["Gamma", "Beta", "Alpha", "Delta"]
    scores = [hit["score"] for hit in found["hits"]]
    assert scores[:3] == pytest.approx([1.0, 0.6, 0.0], abs=1e-6)
    assert scores[3] == pytest.approx(-1 / (1.04**0.5), abs=1e-6)
    assert found["candidates"] == {"vector": 4, "text": 0, "trigram": 0}
    # Length does not matter to cosine, at float32's edges neither (they gave null scores).
    for scale in (3e38, 1e-30):
        scaled = await search(client, kb, vector=[x * scale for x in Q], mode="vector")
        assert [hit["score"] for hit in scaled["hits"]] == pytest.approx(scores, abs=1e-6)


async def test_text_mode_ranks_by_matched_terms(client: httpx.AsyncClient, kb: Any) -> None:
    found = await search(client, kb, query="wind electricity", mode="text", include=["explain"])
    assert titles(found) == ["Beta", "Alpha"]
    scores = [hit["score"] for hit in found["hits"]]
    assert 1 > scores[0] > scores[1] > 0
    assert found["text_query"] == "'wind' | 'electr'"
    assert found["hits"][0]["highlights"] == [
        "<mark>wind</mark> turbines generate <mark>electricity</mark> from moving <mark>wind</mark>"
    ]
    assert [hit["explain"]["text_rank"] for hit in found["hits"]] == [1, 2]
    assert found["candidates"]["text"] == 2


async def test_hybrid_weighted_fuses_min_max_normalised_scores(
    client: httpx.AsyncClient, kb: Any
) -> None:
    found = await search(
        client, kb, query="wind electricity", vector=Q, include=["explain"], fusion="weighted"
    )
    assert found["mode"] == "hybrid"
    assert titles(found) == ["Beta", "Gamma", "Alpha", "Delta"]
    by_title = {hit["doc_title"]: hit for hit in found["hits"]}
    low = by_title["Delta"]["explain"]["vector_similarity"]
    best_text = by_title["Beta"]["explain"]["text_score"]
    # Both sides normalised over all four candidates; Gamma and Delta hold no query term, so
    # the text side's minimum is 0. Beta: best text score (1) and vector (0.6 - low) /
    # (1 - low); Gamma: vector 1, no text.
    assert by_title["Beta"]["score"] == pytest.approx(0.5 + 0.5 * (0.6 - low) / (1 - low))
    assert by_title["Gamma"]["score"] == pytest.approx(0.5)
    alpha_text = by_title["Alpha"]["explain"]["text_score"] / best_text
    assert by_title["Alpha"]["score"] == pytest.approx(
        0.5 * (0 - low) / (1 - low) + 0.5 * alpha_text
    )
    assert by_title["Delta"]["score"] == pytest.approx(0.0)
    explain = by_title["Beta"]["explain"]
    assert explain["vector_rank"] == 2
    assert explain["text_rank"] == 1
    assert explain["vector_similarity"] == pytest.approx(0.6)
    assert explain["text_match"] == "fulltext"
    assert explain["fused_score"] == pytest.approx(by_title["Beta"]["score"])
    assert found["candidates"] == {"vector": 4, "text": 2, "trigram": 0}


async def test_weighted_fusion_completes_the_side_that_missed_a_candidate(
    client: httpx.AsyncClient, kb: Any
) -> None:
    # Two candidates per side: vector [Gamma 1, Beta 0.6], text [Beta, Alpha]. Alpha's vector
    # similarity (0) is computed for the fusion; Gamma's text score is 0 (no query term).
    found = await search(
        client, kb, query="wind electricity", vector=Q, candidates=2, include=["explain"]
    )
    by_title = {hit["doc_title"]: hit for hit in found["hits"]}
    assert set(by_title) == {"Beta", "Gamma", "Alpha"}
    best_text = by_title["Beta"]["explain"]["text_score"]
    assert by_title["Beta"]["score"] == pytest.approx(0.5 * 0.6 + 0.5)
    assert by_title["Gamma"]["score"] == pytest.approx(0.5)
    assert by_title["Alpha"]["score"] == pytest.approx(
        0.5 * by_title["Alpha"]["explain"]["text_score"] / best_text
    )
    # explain shows what fusion used: Alpha was not a vector candidate (no vector rank) but
    # its similarity was computed (0), Gamma holds no query term (text score 0), and every
    # score is the weighted sum of the normalised values explain reports.
    alpha, gamma = by_title["Alpha"]["explain"], by_title["Gamma"]["explain"]
    assert alpha["vector_rank"] is None
    assert alpha["vector_similarity"] == pytest.approx(0.0)
    assert gamma["text_rank"] is None
    assert gamma["text_score"] == pytest.approx(0.0)
    assert gamma["vector_normalized"] == pytest.approx(1.0)
    for hit in found["hits"]:
        explain = hit["explain"]
        assert 0.0 <= explain["vector_normalized"] <= 1.0
        assert 0.0 <= explain["text_normalized"] <= 1.0
        assert hit["score"] == pytest.approx(
            0.5 * explain["vector_normalized"] + 0.5 * explain["text_normalized"]
        )


async def test_hybrid_rrf_fuses_ranks(client: httpx.AsyncClient, kb: Any) -> None:
    found = await search(client, kb, query="wind electricity", vector=Q, fusion="rrf")
    assert titles(found) == ["Beta", "Alpha", "Gamma", "Delta"]
    scores = [hit["score"] for hit in found["hits"]]
    expected = [
        61 * (0.5 / 62 + 0.5 / 61),
        61 * (0.5 / 63 + 0.5 / 62),
        61 * 0.5 / 61,
        61 * 0.5 / 64,
    ]
    assert scores == pytest.approx(expected)


async def test_vector_weight_moves_the_balance(client: httpx.AsyncClient, kb: Any) -> None:
    vector_only = await search(client, kb, query="wind electricity", vector=Q, vector_weight=1)
    assert titles(vector_only) == ["Gamma", "Beta", "Alpha", "Delta"]
    text_only = await search(client, kb, query="wind electricity", vector=Q, vector_weight=0)
    # Normalised over every candidate: Alpha keeps its share of Beta's text score, above the
    # chunks that hold no query term (before completion it sank to 0 with them).
    assert titles(text_only)[:2] == ["Beta", "Alpha"]
    scores = [hit["score"] for hit in text_only["hits"]]
    assert scores[0] == pytest.approx(1)
    assert 0 < scores[1] < 1
    assert scores[2:] == pytest.approx([0, 0])


async def test_query_is_embedded_when_no_vector_is_given(
    client: httpx.AsyncClient, kb: Any, app: FastAPI
) -> None:
    await add_document(app, kb, ["tidal barrages harness ocean tides"], title="Tidal")
    found = await search(client, kb, query="tidal barrages harness ocean tides", mode="vector")
    assert titles(found)[0] == "Tidal"
    assert found["hits"][0]["score"] == pytest.approx(1.0, abs=1e-5)
    factory = app.state.embedder_factory
    assert factory.by_dimensions[384].queries == ["tidal barrages harness ocean tides"]


async def test_threshold_applies_to_the_returned_score(client: httpx.AsyncClient, kb: Any) -> None:
    found = await search(client, kb, vector=Q, mode="vector", score_threshold=0.5)
    assert titles(found) == ["Gamma", "Beta"]
    assert all(hit["score"] >= 0.5 for hit in found["hits"])
    negative = await search(client, kb, vector=Q, mode="vector", score_threshold=-0.5)
    assert titles(negative) == ["Gamma", "Beta", "Alpha"]
    fused = await search(client, kb, query="wind electricity", vector=Q, score_threshold=0.5)
    assert titles(fused) == ["Beta", "Gamma"]
    text = await search(client, kb, query="wind electricity", mode="text", score_threshold=0.99)
    assert text["hits"] == []


async def test_top_k_and_offset_page_through_one_ranking(
    client: httpx.AsyncClient, kb: Any
) -> None:
    everything = titles(await search(client, kb, vector=Q, mode="vector", top_k=4))
    pages = [
        titles(await search(client, kb, vector=Q, mode="vector", top_k=2, offset=offset))
        for offset in (0, 2, 4)
    ]
    assert pages == [everything[:2], everything[2:], []]


async def test_trigram_fallback_finds_misspelled_short_queries(
    client: httpx.AsyncClient, kb: Any
) -> None:
    found = await search(client, kb, query="geotermal", mode="text", include=["explain"])
    assert titles(found) == ["Delta"]
    assert found["candidates"] == {"vector": 0, "text": 0, "trigram": 1}
    assert found["hits"][0]["explain"]["text_match"] == "trigram"
    assert 0 < found["hits"][0]["score"] <= 1


async def test_trigram_fallback_ignores_stop_words(client: httpx.AsyncClient, kb: Any) -> None:
    """Stop words share trigrams with every chunk: they are not what the fallback looks for."""
    padded = await search(client, kb, query="the geotermal of", mode="text")
    assert titles(padded) == ["Delta"]
    assert padded["candidates"]["trigram"] == 1
    nothing = await search(client, kb, query="there is an", mode="text")
    assert nothing["hits"] == []
    assert nothing["candidates"] == {"vector": 0, "text": 0, "trigram": 0}


async def test_websearch_syntax_requires_all_terms_and_honours_exclusion(
    client: httpx.AsyncClient, kb: Any
) -> None:
    both = await search(client, kb, query="wind electricity", mode="text", text_match="websearch")
    assert titles(both) == ["Beta"]
    excluded = await search(
        client, kb, query="electricity -wind", mode="text", text_match="websearch"
    )
    assert titles(excluded) == ["Alpha"]


async def test_response_echoes_the_request(client: httpx.AsyncClient, kb: Any) -> None:
    found = await search(client, kb, query="  wind  ", vector=Q, top_k=3, offset=1)
    assert found["query"] == "  wind  "
    assert found["requested_mode"] == found["mode"] == "hybrid"
    assert found["fusion"] == "weighted"
    assert found["vector_weight"] == 0.5
    assert found["knowledge_bases"] == [kb["id"]]
    assert (found["top_k"], found["offset"]) == (3, 1)
    assert found["degraded"] is None


async def test_include_vectors_returns_the_stored_vector(
    client: httpx.AsyncClient, kb: Any
) -> None:
    found = await search(client, kb, vector=Q, mode="vector", top_k=1, include=["vectors"])
    assert found["hits"][0]["vector"] == pytest.approx(Q, abs=1e-6)
    plain = await search(client, kb, vector=Q, mode="vector", top_k=1)
    assert plain["hits"][0]["vector"] is None
    assert plain["hits"][0]["explain"] is None


async def test_a_long_query_is_accepted(client: httpx.AsyncClient, kb: Any) -> None:
    query = ("wind electricity " * 700)[:10_000]
    found = await search(client, kb, query=query, mode="text")
    assert titles(found)[0] == "Beta"


async def test_a_query_of_stop_words_only_finds_nothing_by_text(
    client: httpx.AsyncClient, kb: Any
) -> None:
    found = await search(client, kb, query="the of and", mode="text")
    assert found["hits"] == []
    assert found["text_query"] is None


async def test_vector_search_above_2000_dimensions_uses_halfvec(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    # 3,072 dimensions: the index and the query vector are cast to halfvec(3072).
    big = await create_kb(client, "wide", embedding={"provider": "none", "dimensions": 3072})
    for title, components in (("near", [1, 0.1]), ("far", [0, 1]), ("middle", [1, 1])):
        vector = unit(components, dims=3072)
        await add_document(app, big, [ChunkSpec(title, vector=vector)], title=title)
    found = await search(client, big, vector=unit([1, 0], dims=3072), mode="vector")
    assert titles(found) == ["near", "middle", "far"]
    assert found["hits"][0]["score"] == pytest.approx(1 / (1.01**0.5), abs=1e-3)


async def test_trigram_fallback_skips_words_that_full_text_knows(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """A word some chunk holds was matched by full text: trigrams would only add chunks that
    look like it (and recheck every chunk sharing a few trigrams). A word held only where the
    search may not look (filtered out, or hidden by access lists) is unknown to this search."""
    kb = await create_kb(client, "known-words")
    await add_document(app, kb, ["Volcanoes erupt"], title="word", metadata={"shelf": "a"})
    await add_document(
        app, kb, ["Volcanology is a science"], title="like it", metadata={"shelf": "b"}
    )
    known = await search(client, kb, query="volcano", mode="text")
    assert titles(known) == ["word"]
    assert known["candidates"] == {"vector": 0, "text": 1, "trigram": 0}
    elsewhere = await search(
        client, kb, query="volcano", mode="text", filter={"metadata.shelf": "b"}
    )
    assert titles(elsewhere) == ["like it"]
    assert elsewhere["candidates"] == {"vector": 0, "text": 0, "trigram": 1}


async def test_trigram_fallback_keeps_the_first_letters(client: httpx.AsyncClient, kb: Any) -> None:
    """A typo past a word's first four letters is found; one inside them is not (the price
    of rechecking only chunks with a lexeme that begins as the word does)."""
    late = await search(client, kb, query="geothremal", mode="text")
    assert titles(late) == ["Delta"]
    early = await search(client, kb, query="heothermal", mode="text")
    assert early["hits"] == []
    assert early["candidates"]["trigram"] == 0


async def test_trigram_fallback_finds_misspelled_words_apart(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """Each word of a short query is looked for on its own: the two misspellings stand apart
    in the chunk; a chunk like only one of the words is not like the query."""
    kb = await create_kb(client, "typos")
    await add_document(app, kb, ["Geothermal plants run day and night near volcanoes"], title="far")
    await add_document(app, kb, ["Volcanoes erupt"], title="one word")
    found = await search(client, kb, query="geotermal volcanoz", mode="text", include=["explain"])
    assert titles(found) == ["far"]
    assert found["candidates"]["trigram"] == 1
    assert found["hits"][0]["explain"]["text_match"] == "trigram"
