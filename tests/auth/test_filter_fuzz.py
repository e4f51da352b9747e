"""Fuzzed filter keys and values: never a 500, never a row of another project."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.auth.helpers import bearer, create_key, create_project, upload

FIELDS = [
    "doc_id", "chunk_id", "doc_title", "external_id", "source_uri", "filename", "format",
    "created_at", "updated_at", "chunk_index", "depth", "page", "section_titles", "node_path",
    "project_id", "knowledge_base_id", "access", "metadata", "metadata.team", "metadata.rank",
    "metadata.a.b", "metadata.", "metadata.-x", "metadata.project_id",
]  # fmt: skip
OPERATORS = [
    "$eq", "$ne", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$exists", "$contains", "$not",
    "$and", "$or", "$regex", "$where",
]  # fmt: skip

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | st.sampled_from(["2024-01-01", "2024-01-01T00:00:00Z", "ops", "00000000-0000-0000-0000-0"])
)
keys = st.sampled_from(FIELDS + OPERATORS) | st.text(max_size=12)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=12,
)
filters = st.dictionaries(keys, values, max_size=4)


@dataclass
class Tenants:
    alpha_key: str
    alpha_kb: str
    alpha_docs: set[str]
    beta_kb: str


@pytest.fixture
async def tenants(client: httpx.AsyncClient) -> Tenants:
    made: dict[str, tuple[str, str, set[str]]] = {}
    for name in ("alpha", "beta"):
        await create_project(client, name)
        key = (await create_key(client, name, scopes=["write"]))["key"]
        kb = (
            await client.post("/v1/knowledge-bases", json={"name": "kb"}, headers=bearer(key))
        ).json()["id"]
        docs = set()
        for rank, team in enumerate(("ops", "hr", "ops")):
            document = await upload(
                client,
                key,
                kb,
                f"# Notes {rank}\n\nOtters, salaries and launch codes, part {rank}.",
                metadata={"team": team, "rank": rank, "a": {"b": rank}},
                external_id=f"doc-{rank}",
            )
            docs.add(document["id"])
        made[name] = (key, kb, docs)
    return Tenants(made["alpha"][0], made["alpha"][1], made["alpha"][2], made["beta"][1])


@settings(
    max_examples=100,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(condition=filters, mode=st.sampled_from(["hybrid", "text", "vector"]))
async def test_fuzzed_filters(
    client: httpx.AsyncClient, tenants: Tenants, condition: dict[str, Any], mode: str
) -> None:
    response = await client.post(
        f"/v1/knowledge-bases/{tenants.alpha_kb}/search",
        json={"query": "otters salaries", "filter": condition, "mode": mode, "top_k": 50},
        headers=bearer(tenants.alpha_key),
    )
    assert response.status_code in (200, 422), response.text
    if response.status_code == 200:
        assert {hit["doc_id"] for hit in response.json()["hits"]} <= tenants.alpha_docs
    else:
        assert response.headers["content-type"] == "application/problem+json"
    listed = await client.get(
        f"/v1/knowledge-bases/{tenants.alpha_kb}/documents",
        params={"metadata": json.dumps(condition)},
        headers=bearer(tenants.alpha_key),
    )
    assert listed.status_code in (200, 422), listed.text
    if listed.status_code == 200:
        assert {d["id"] for d in listed.json()["items"]} <= tenants.alpha_docs
    beta = await client.post(
        f"/v1/knowledge-bases/{tenants.beta_kb}/search",
        json={"query": "otters", "filter": condition},
        headers=bearer(tenants.alpha_key),
    )
    assert beta.status_code in (404, 422)
