"""Dify's External Knowledge API: its documented request, records and error codes."""

from __future__ import annotations

from typing import Any

import httpx

from tests.auth.helpers import bearer

URL = "/compat/dify/retrieval"


def dify_request(knowledge_id: str = "handbook", **extra: Any) -> dict[str, Any]:
    """Shaped as the request example of Dify's spec."""
    return {
        "knowledge_id": knowledge_id,
        "query": "annual leave days",
        "retrieval_setting": {"top_k": 2, "score_threshold": 0.0},
        **extra,
    }


async def test_records_as_dify_reads_them(
    client: httpx.AsyncClient, corpus: dict[str, Any]
) -> None:
    staff = bearer(corpus["keys"]["staff"])
    response = await client.post(URL, json=dify_request(), headers=staff)
    assert response.status_code == 200, response.text
    records = response.json()["records"]
    assert records, "the public document matches"
    for record in records:
        assert set(record) == {"content", "score", "title", "metadata"}
        assert isinstance(record["metadata"], dict)
        assert 0 <= record["score"] <= 1
    # The key's access list holds: the secret document is never a record for staff.
    assert {r["metadata"]["doc_id"] for r in records} == {corpus["public"]}
    assert records[0]["title"] == "Leave policy"
    assert records[0]["metadata"]["team"] == "hr"
    secret = await client.post(URL, json=dify_request(), headers=bearer(corpus["keys"]["secret"]))
    assert corpus["secret"] in {r["metadata"]["doc_id"] for r in secret.json()["records"]}
    # The same hits, in the same order, as REST search returns to the key.
    rest = await client.post(
        "/v1/knowledge-bases/handbook/search",
        json={"query": "annual leave days", "top_k": 2},
        headers=staff,
    )
    assert [r["metadata"]["chunk_id"] for r in records] == [
        hit["chunk_id"] for hit in rest.json()["hits"]
    ]


async def test_score_threshold_and_metadata_condition(
    client: httpx.AsyncClient, corpus: dict[str, Any]
) -> None:
    headers = bearer(corpus["keys"]["secret"])
    high = dify_request(retrieval_setting={"top_k": 5, "score_threshold": 1.0})
    response = await client.post(URL, json=high, headers=headers)
    assert all(r["score"] >= 1.0 for r in response.json()["records"])

    def condition(*conditions: dict[str, Any], logical: str = "and") -> dict[str, Any]:
        return {"logical_operator": logical, "conditions": list(conditions)}

    cases = [
        (condition({"name": ["team"], "comparison_operator": "is", "value": "hr"}), True),
        (condition({"name": ["team"], "comparison_operator": "is not", "value": "hr"}), False),
        (condition({"name": ["year"], "comparison_operator": "≥", "value": "2024"}), True),
        (condition({"name": ["year"], "comparison_operator": ">", "value": 2024}), False),
        (condition({"name": ["team"], "comparison_operator": "start with", "value": "h"}), True),
        (condition({"name": ["team"], "comparison_operator": "end with", "value": "h"}), False),
        (condition({"name": ["team"], "comparison_operator": "not empty"}), True),
        (condition({"name": ["team"], "comparison_operator": "in", "value": ["hr", "it"]}), True),
    ]
    for metadata_condition, public_found in cases:
        body = dify_request(
            retrieval_setting={"top_k": 5, "score_threshold": 0.0},
            metadata_condition=metadata_condition,
        )
        response = await client.post(URL, json=body, headers=headers)
        assert response.status_code == 200, (metadata_condition, response.text)
        found = {r["metadata"]["doc_id"] for r in response.json()["records"]}
        assert (corpus["public"] in found) is public_found, metadata_condition
        # Only the public document has metadata: no condition on it lets the secret one in.
        assert corpus["secret"] not in found or metadata_condition["conditions"][0][
            "comparison_operator"
        ] in ("is not",)


async def test_dify_error_codes(client: httpx.AsyncClient, corpus: dict[str, Any]) -> None:
    cases = [
        ({}, 403, 1001),
        ({"Authorization": "Basic abc"}, 403, 1001),
        ({"Authorization": "Bearer"}, 403, 1001),
        (bearer("arb_not-a-real-key"), 403, 1002),
    ]
    for headers, status, code in cases:
        response = await client.post(URL, json=dify_request(), headers=headers)
        assert response.status_code == status, (headers, response.text)
        body = response.json()
        assert body["error_code"] == code
        assert body["error_msg"]
    staff = bearer(corpus["keys"]["staff"])
    missing = await client.post(URL, json=dify_request("no-such-kb"), headers=staff)
    assert missing.status_code == 404
    assert missing.json()["error_code"] == 2001
    # A knowledge base outside the key's limits is as missing as one that does not exist.
    limited = bearer(corpus["keys"]["limited"])
    hidden = await client.post(URL, json=dify_request("handbook"), headers=limited)
    assert hidden.status_code == 404
    assert hidden.json()["error_code"] == 2001
    bad = await client.post(URL, json={"knowledge_id": "handbook"}, headers=staff)
    assert bad.status_code == 422
    assert bad.headers["content-type"] == "application/problem+json"
