"""The filter language end to end: every operator, nesting, JSON types, and its 422s."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.search.corpus import ChunkSpec, add_document, create_kb, search, unit


@pytest.fixture
async def corpus(client: httpx.AsyncClient, app: FastAPI) -> dict[str, Any]:
    kb = await create_kb(client, "filters")
    ids: dict[str, uuid.UUID] = {}
    ids["Report 2019"], _ = await add_document(
        app,
        kb,
        [
            ChunkSpec(
                "annual figures",
                section_titles=["Intro", "Summary"],
                page_start=1,
                page_end=2,
                metadata={"kind": "table"},
            )
        ],
        title="Report 2019",
        format="pdf",
        external_id="r-2019",
        metadata={
            "year": 2019,
            "lang": "en",
            "tags": ["finance", "annual"],
            "draft": False,
            "score": 7.5,
            "nested": {"level": 1},
        },
    )
    ids["Report 2020"], _ = await add_document(
        app,
        kb,
        [ChunkSpec("quarterly figures", section_titles=["Methods"], page_start=3, page_end=3)],
        title="Report 2020",
        format="md",
        metadata={"year": 2020, "lang": "de", "tags": ["finance"], "draft": True, "score": 9},
    )
    ids["Notes"], _ = await add_document(
        app, kb, ["loose notes"], title="Notes", metadata={"year": "2021", "lang": "en"}
    )
    ids["Memo"], _ = await add_document(
        app,
        kb,
        [ChunkSpec("a memo", metadata={"year": 1999})],
        title="Memo",
        format="txt",
        metadata={"year": 2021.0, "tags": "Finance report"},
    )
    return {"kb": kb, "ids": ids}


ALL = {"Report 2019", "Report 2020", "Notes", "Memo"}

CASES: list[tuple[dict[str, Any], set[str]]] = [
    ({}, ALL),
    # metadata: JSON-type-aware comparisons; the chunk's key wins over the document's
    ({"metadata.year": 2020}, {"Report 2020"}),
    ({"metadata.year": {"$eq": 2020.0}}, {"Report 2020"}),
    ({"metadata.year": {"$gte": 2020}}, {"Report 2020"}),
    ({"metadata.year": {"$lt": 2020}}, {"Report 2019", "Memo"}),
    ({"metadata.year": {"$lte": 2019}}, {"Report 2019", "Memo"}),
    ({"metadata.year": {"$gt": 1999}}, {"Report 2019", "Report 2020"}),
    ({"metadata.year": "2021"}, {"Notes"}),
    ({"metadata.year": {"$in": [2019, "2021"]}}, {"Report 2019", "Notes"}),
    ({"metadata.year": {"$nin": [2019]}}, ALL - {"Report 2019"}),
    ({"metadata.year": {"$ne": 2020}}, ALL - {"Report 2020"}),
    ({"metadata.year": {"$gte": 2019, "$lt": 2020}}, {"Report 2019"}),
    ({"metadata.year": {"$not": {"$gte": 2020}}}, ALL - {"Report 2020"}),
    ({"metadata.lang": {"$exists": False}}, {"Memo"}),
    ({"metadata.lang": {"$exists": True}}, ALL - {"Memo"}),
    ({"metadata.lang": {"$ne": "en"}}, {"Report 2020", "Memo"}),
    ({"metadata.lang": {"$gt": "de"}}, {"Report 2019", "Notes"}),
    ({"metadata.tags": {"$contains": "finance"}}, {"Report 2019", "Report 2020", "Memo"}),
    ({"metadata.tags": {"$contains": "annual"}}, {"Report 2019"}),
    ({"metadata.draft": True}, {"Report 2020"}),
    ({"metadata.draft": False}, {"Report 2019"}),
    ({"metadata.score": {"$gt": 8}}, {"Report 2020"}),
    ({"metadata.score": {"$lte": 7.5}}, {"Report 2019"}),
    ({"metadata.nested.level": 1}, {"Report 2019"}),
    ({"metadata.kind": "table"}, {"Report 2019"}),
    ({"metadata.missing": {"$nin": ["x"]}}, ALL),
    # document and chunk columns
    ({"doc_title": {"$contains": "REPORT"}}, {"Report 2019", "Report 2020"}),
    ({"doc_title": {"$in": ["Notes", "Memo"]}}, {"Notes", "Memo"}),
    ({"doc_title": {"$gte": "R"}}, {"Report 2019", "Report 2020"}),
    ({"format": {"$ne": "pdf"}}, ALL - {"Report 2019"}),
    ({"format": {"$exists": False}}, {"Notes"}),
    ({"format": {"$nin": ["md", "txt"]}}, {"Report 2019", "Notes"}),
    ({"external_id": "r-2019"}, {"Report 2019"}),
    ({"chunk_index": 0}, ALL),
    ({"chunk_index": {"$gt": 0}}, set()),
    ({"section_titles": "Intro"}, {"Report 2019"}),
    ({"section_titles": {"$contains": "Summary"}}, {"Report 2019"}),
    ({"section_titles": {"$in": ["Methods", "Other"]}}, {"Report 2020"}),
    ({"section_titles": {"$nin": ["Intro"]}}, ALL - {"Report 2019"}),
    ({"section_titles": {"$ne": "Intro"}}, ALL - {"Report 2019"}),
    ({"section_titles": {"$exists": False}}, {"Notes", "Memo"}),
    ({"page": 2}, {"Report 2019"}),
    ({"page": {"$in": [3, 7]}}, {"Report 2020"}),
    ({"page": {"$gte": 3}}, {"Report 2020"}),
    ({"page": {"$gt": 2}}, {"Report 2020"}),
    ({"page": {"$lt": 2}}, {"Report 2019"}),
    ({"page": {"$lte": 3}}, {"Report 2019", "Report 2020"}),
    ({"page": {"$ne": 1}}, ALL - {"Report 2019"}),
    ({"page": {"$exists": False}}, {"Notes", "Memo"}),
    ({"created_at": {"$lte": "2999-01-01"}}, ALL),
    ({"created_at": {"$gt": "2999-01-01T00:00:00+02:00"}}, set()),
    # logic
    (
        {
            "$or": [
                {"metadata.year": 2019},
                {"$and": [{"format": "txt"}, {"$not": {"metadata.lang": {"$exists": True}}}]},
            ]
        },
        {"Report 2019", "Memo"},
    ),
    ({"$not": {"$or": [{"format": "pdf"}, {"format": "md"}]}}, {"Notes", "Memo"}),
    ({"format": "pdf", "metadata.lang": "de"}, set()),
]


@pytest.mark.parametrize(("spec", "expected"), CASES, ids=[str(c[0]) for c in CASES])
async def test_filter_selects_exactly(
    client: httpx.AsyncClient, corpus: dict[str, Any], spec: dict[str, Any], expected: set[str]
) -> None:
    for mode in ("vector", "hybrid"):
        found = await search(
            client,
            corpus["kb"],
            vector=unit([1]),
            query="figures",
            mode=mode,
            filter=spec,
            top_k=50,
        )
        assert {hit["doc_title"] for hit in found["hits"]} == expected, mode


async def test_doc_id_filters(client: httpx.AsyncClient, corpus: dict[str, Any]) -> None:
    ids = {title: str(doc_id) for title, doc_id in corpus["ids"].items()}
    found = await search(
        client, corpus["kb"], vector=unit([1]), mode="vector", filter={"doc_id": ids["Notes"]}
    )
    assert [hit["doc_title"] for hit in found["hits"]] == ["Notes"]
    found = await search(
        client,
        corpus["kb"],
        vector=unit([1]),
        mode="vector",
        filter={"doc_id": {"$nin": [ids["Notes"], ids["Memo"]]}},
    )
    assert {hit["doc_title"] for hit in found["hits"]} == {"Report 2019", "Report 2020"}


async def test_text_mode_is_filtered_too(client: httpx.AsyncClient, corpus: dict[str, Any]) -> None:
    found = await search(
        client, corpus["kb"], query="figures", mode="text", filter={"metadata.year": 2020}
    )
    assert [hit["doc_title"] for hit in found["hits"]] == ["Report 2020"]


def _deep(depth: int) -> dict[str, Any]:
    spec: dict[str, Any] = {"format": "pdf"}
    for _ in range(depth):
        spec = {"$not": spec}
    return spec


BAD: list[tuple[Any, str]] = [
    ({"metadata.year": {"$regex": "x"}}, "unknown operator '$regex'"),
    ({"$nor": [{"format": "pdf"}]}, "unknown operator '$nor'"),
    ({"$eq": 1}, "must be applied to a field"),
    ({"metadata.bad key!": 1}, "invalid metadata key"),
    ({"metadata.": 1}, "invalid metadata key"),
    ({"metadata.-x": 1}, "invalid metadata key"),
    ({"colour": "red"}, "unknown field 'colour'"),
    ({"doc_id": "not-a-uuid"}, "expected a UUID"),
    ({"chunk_index": "1"}, "expected an integer"),
    ({"chunk_index": True}, "expected an integer"),
    ({"chunk_index": {"$contains": 1}}, "$contains does not apply"),
    ({"doc_id": {"$gt": "x"}}, "$gt does not apply"),
    ({"section_titles": {"$gt": "a"}}, "$gt does not apply"),
    ({"metadata.year": None}, "test presence with $exists"),
    ({"metadata.year": [2019]}, "expected a string, number or boolean"),
    ({"metadata.year": {"nested": 1}}, "holds operators only"),
    ({"metadata.year": {}}, "an empty condition"),
    ({"metadata.year": {"$in": []}}, "non-empty list"),
    ({"metadata.year": {"$in": 2019}}, "non-empty list"),
    ({"metadata.year": {"$exists": "yes"}}, "$exists takes true or false"),
    ({"$or": []}, "non-empty list"),
    ({"$and": {"format": "pdf"}}, "non-empty list"),
    ({"$or": ["format"]}, "expected an object"),
    ({"created_at": {"$gt": "yesterday"}}, "ISO 8601"),
    ({"created_at": "9999-12-31T23:59:59-01:00"}, "outside years 1-9999"),
    ({"updated_at": {"$lt": "0001-01-01T00:30:00+01:00"}}, "outside years 1-9999"),
    ({"doc_title": "x\u0000y"}, "NUL"),
    (_deep(12), "nested deeper"),
    ({"$or": [{"chunk_index": i} for i in range(101)]}, "more than 100 conditions"),
]


@pytest.mark.parametrize(("spec", "message"), BAD, ids=[m for _, m in BAD])
async def test_malformed_filters_are_422_with_a_reason(
    client: httpx.AsyncClient, corpus: dict[str, Any], spec: Any, message: str
) -> None:
    found = await search(client, corpus["kb"], expect=422, query="figures", filter=spec)
    assert message in found["detail"]
    assert found["errors"][0]["type"] == "filter_invalid"
    assert found["errors"][0]["loc"][0] in {*spec, "$or", "$not"}


async def test_a_filter_must_be_an_object(
    client: httpx.AsyncClient, corpus: dict[str, Any]
) -> None:
    found = await search(client, corpus["kb"], expect=422, query="x", filter=["format"])
    assert found["type"].endswith("validation-error")


async def test_an_empty_filtered_search_names_the_metadata_keys_nothing_has(
    client: httpx.AsyncClient, corpus: dict[str, Any]
) -> None:
    kb = corpus["kb"]
    typo = await search(client, kb, query="figures", filter={"metadata.yaer": 2019})
    assert typo["hits"] == []
    assert len(typo["warnings"]) == 1
    assert "'yaer'" in typo["warnings"][0]
    # Nested paths name their top-level key; a key some document has is not reported.
    both = await search(
        client,
        kb,
        query="figures",
        filter={"$and": [{"metadata.year": 1800}, {"$or": [{"metadata.langg.x": "en"}]}]},
    )
    assert both["hits"] == []
    assert len(both["warnings"]) == 1
    assert "'langg'" in both["warnings"][0]
    # A chunk's own metadata counts too ("kind" is only on a chunk of Report 2019).
    absent_value = await search(client, kb, query="figures", filter={"metadata.kind": "chart"})
    assert absent_value["hits"] == []
    assert absent_value["warnings"] == []
    found = await search(client, kb, query="figures", filter={"metadata.year": 2019})
    assert found["hits"]
    assert found["warnings"] == []
