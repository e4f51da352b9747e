"""What a request body must hold beyond its fields' types is in its JSON Schema too: a client
generated from the spec, or the API fuzzer, tells a valid body from one the API refuses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel, ValidationError

from app.answers.schemas import AnswerRequest
from app.chunks.schemas import ChunkUpsert
from app.documents.schemas import DocumentUpdate
from app.kit.vectors import as_float32, vector_problem
from app.search.schemas import SearchRequest
from app.sources.schemas import Schedule, SourceCreate
from app.webhooks.schemas import WebhookCreate

SPEC = json.loads((Path(__file__).resolve().parents[1] / "openapi" / "openapi.json").read_text())
USER = {"role": "user", "content": "How many days off?"}

CASES: list[tuple[type[BaseModel], dict[str, Any]]] = [
    (SearchRequest, {}),
    (SearchRequest, {"query": "river"}),
    (SearchRequest, {"query": ""}),
    (SearchRequest, {"query": " \t\n"}),
    (SearchRequest, {"query": None}),
    (SearchRequest, {"vector": [0.5, 0.25]}),
    (SearchRequest, {"query": None, "vector": [0.5, 0.25]}),
    (SearchRequest, {"query": "  ", "vector": [0.5, 0.25]}),
    (SearchRequest, {"query": "river", "vector": None}),
    (SearchRequest, {"vector": None}),
    (SearchRequest, {"vector": [0.0, 0.0, 0.0]}),
    (SearchRequest, {"vector": [0.0, -0.5, 0.0]}),
    (SearchRequest, {"vector": [1e39, 0.5]}),
    (SearchRequest, {"vector": [-1e300]}),
    (SearchRequest, {"vector": [3.4e38, -3.4e38]}),
    (AnswerRequest, {}),
    (AnswerRequest, {"query": "How many days off?"}),
    (AnswerRequest, {"query": "   "}),
    (AnswerRequest, {"messages": [USER]}),
    (AnswerRequest, {"messages": [{"role": "assistant", "content": "Hello."}]}),
    (AnswerRequest, {"messages": [{"role": "user", "content": "  "}]}),
    (AnswerRequest, {"messages": [{"role": "system", "content": "Be brief."}, USER]}),
    (AnswerRequest, {"messages": []}),
    (AnswerRequest, {"query": "How many days off?", "messages": [USER]}),
    (AnswerRequest, {"query": "How many days off?", "messages": None}),
    (AnswerRequest, {"query": None, "messages": [USER]}),
    (AnswerRequest, {"query": None, "messages": None}),
    (WebhookCreate, {"url": "https://example.com/hooks/arbor"}),
    (WebhookCreate, {"url": "HTTP://example.com"}),
    (WebhookCreate, {"url": "http://127.0.0.1:9/hook?x=1"}),
    (WebhookCreate, {"url": "ftp://example.com/hook"}),
    (WebhookCreate, {"url": "example.com/hook"}),
    (WebhookCreate, {"url": "https://user:secret@example.com/hook"}),
    (Schedule, {"every": "30m"}),
    (Schedule, {"every": "1d"}),
    (Schedule, {"every": "30 minutes"}),
    (Schedule, {"every": "0h"}),
    (Schedule, {"every": "59s"}),
    (Schedule, {"every": "60s"}),
    (Schedule, {"every": "9999999s"}),
    (Schedule, {"every": "999999m"}),
    (Schedule, {"every": "9999h"}),
    (Schedule, {"every": "10000h"}),
    (Schedule, {"every": "999d"}),
    (Schedule, {"every": "1000d"}),
    (Schedule, {"every": "449521d"}),
    (SourceCreate, {"name": "docs", "kind": "records"}),
    (SourceCreate, {"name": "docs", "kind": "records", "urls": ["https://example.com"]}),
    (SourceCreate, {"name": "docs", "kind": "http", "urls": ["https://example.com"]}),
    (SourceCreate, {"name": "docs", "kind": "http", "sitemaps": ["https://example.com/s.xml"]}),
    (SourceCreate, {"name": "docs", "kind": "http", "urls": ["https://a.example"], "path": "/"}),
    (SourceCreate, {"name": "docs", "kind": "folder", "path": "/srv/docs", "include": ["*.md"]}),
    (SourceCreate, {"name": "docs", "kind": "folder", "path": "/srv/docs", "crawl": None}),
    (DocumentUpdate, {}),
    (DocumentUpdate, {"title": "Handbook"}),
    (DocumentUpdate, {"source_uri": None}),
    (DocumentUpdate, {"access": None}),
]


def _valid_by_model(model: type[BaseModel], body: dict[str, Any]) -> bool:
    try:
        model.model_validate(body)
    except ValidationError:
        return False
    return True


def _valid_by_spec(model: type[BaseModel], body: dict[str, Any]) -> bool:
    schema = {"$ref": f"#/components/schemas/{model.__name__}", "components": SPEC["components"]}
    return jsonschema.Draft202012Validator(schema).is_valid(body)


@pytest.mark.parametrize(("model", "body"), CASES, ids=lambda c: json.dumps(c, default=str))
def test_the_spec_refuses_what_the_model_refuses(
    model: type[BaseModel], body: dict[str, Any]
) -> None:
    assert _valid_by_spec(model, body) == _valid_by_model(model, body)


@pytest.mark.parametrize(
    "vector", [[0.5, 0.25], [0.0, 0.0], [0.0, -0.0, 1e-3], [1e39, 0.25], [-3.4e38, 1.0]]
)
def test_a_chunk_vector_the_spec_allows_is_one_the_api_stores(vector: list[float]) -> None:
    # Chunk vectors are checked against their knowledge base in the service, not the model.
    body = {"doc_id": "guide", "text": "Seeds sprout.", "vector": vector}
    assert _valid_by_spec(ChunkUpsert, body) == (vector_problem(as_float32(vector)) is None)


@pytest.mark.parametrize(
    "body",
    [
        {"name": "docs", "kind": "folder"},
        {"name": "docs", "kind": "http"},
        {"name": "docs", "kind": "http", "urls": []},
        {"name": "docs", "kind": "http", "urls": [], "sitemaps": []},
    ],
)
def test_the_spec_refuses_a_source_without_what_its_kind_needs(body: dict[str, Any]) -> None:
    # The model takes these; the kind's config and adapter refuse them in the service
    # (tests/sources/test_sources.py), and the spec says so.
    assert _valid_by_model(SourceCreate, body)
    assert not _valid_by_spec(SourceCreate, body)


def test_the_cases_hold_bodies_of_both_kinds() -> None:
    verdicts = {_valid_by_model(model, body) for model, body in CASES}
    assert verdicts == {True, False}
