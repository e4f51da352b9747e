"""Evaluations through the API: a small judged set, run as a job, measures checked by hand."""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import httpx
import pytest

from tests.operations.helpers import knowledge_base

DOCS = {
    "leave": "# Leave\n\nAnnual leave is twenty-five days.",
    "pension": "# Pension\n\nThe pension is paid monthly.",
    "parking": "# Parking\n\nParking spaces are assigned yearly.",
}
QUERIES = [
    {"_id": "q1", "text": "leave"},
    {"_id": "q2", "text": "pension"},
    {"_id": "q3", "text": "unicorn"},
    {"_id": "q4", "text": "no judgments for this one"},
]
QRELS = [
    # q1: the leave document (found, rank 1) and the parking one (grade 2, never found).
    {"query_id": "q1", "doc_id": "leave", "score": 1},
    {"query_id": "q1", "doc_id": "parking", "score": 2},
    {"query_id": "q2", "doc_id": "pension", "score": 1},
    # q3 finds nothing; "ghost" names no document.
    {"query_id": "q3", "doc_id": "ghost", "score": 1},
]


async def finished(client: httpx.AsyncClient, kb: str, evaluation_id: str) -> dict[str, Any]:
    for _ in range(600):
        response = await client.get(f"/v1/knowledge-bases/{kb}/evaluations/{evaluation_id}")
        assert response.status_code == 200, response.text
        if response.json()["status"] in ("succeeded", "failed"):
            return dict(response.json())
        await asyncio.sleep(0.05)
    raise AssertionError("the evaluation did not finish")


async def test_evaluation_measures_each_configuration(client: httpx.AsyncClient) -> None:
    kb = await knowledge_base(client, "judged", DOCS)
    response = await client.post(
        f"/v1/knowledge-bases/{kb}/evaluations",
        json={
            "name": "first",
            "queries": QUERIES,
            "qrels": QRELS,
            "configurations": [
                {"name": "text", "mode": "text"},
                {"name": "hybrid", "mode": "hybrid", "fusion": "rrf"},
            ],
        },
    )
    assert response.status_code == 202, response.text
    assert response.json()["status"] == "queued"
    body = await finished(client, kb, response.json()["id"])
    assert body["status"] == "succeeded", body
    results = body["results"]
    assert results["queries_evaluated"] == 3
    assert results["queries_without_judgments"] == ["q4"]
    assert results["unresolved_documents"] == 1
    text, hybrid = results["configurations"]
    assert (text["name"], hybrid["name"]) == ("text", "hybrid")
    assert text["options"] == {"mode": "text"}
    rows = {row["query_id"]: row for row in text["queries"]}
    # q1: leave (grade 1) at rank 1; ideal: parking (2) then leave (1).
    q1_ndcg = 1.0 / (2.0 + 1 / math.log2(3))
    assert rows["q1"]["ndcg_at_10"] == pytest.approx(q1_ndcg)
    assert rows["q1"]["recall_at_10"] == pytest.approx(0.5)
    assert rows["q1"]["mrr_at_10"] == 1.0
    assert rows["q1"]["retrieved"] == ["leave"]
    assert rows["q1"]["relevant"] == 2
    assert rows["q2"]["ndcg_at_10"] == pytest.approx(1.0)
    assert rows["q2"]["recall_at_100"] == 1.0
    assert rows["q3"] == {
        "query_id": "q3",
        "relevant": 1,
        "retrieved": [],
        "ndcg_at_10": 0.0,
        "recall_at_10": 0.0,
        "recall_at_100": 0.0,
        "mrr_at_10": 0.0,
    }
    means = text["measures"]
    assert means["ndcg_at_10"] == pytest.approx((q1_ndcg + 1.0 + 0.0) / 3)
    assert means["recall_at_10"] == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    assert means["mrr_at_10"] == pytest.approx(2 / 3)
    assert text["mean_latency_ms"] > 0
    # Hybrid finds every document for every query (vectors): q1's leave and parking both.
    assert {row["query_id"] for row in hybrid["queries"]} == {"q1", "q2", "q3"}

    listed = await client.get(f"/v1/knowledge-bases/{kb}/evaluations")
    assert listed.status_code == 200
    page = listed.json()
    assert page["total"] == 1
    assert page["items"][0]["name"] == "first"
    assert page["items"][0]["measures"]["text"]["ndcg_at_10"] == pytest.approx(means["ndcg_at_10"])


async def test_beir_files_as_multipart(client: httpx.AsyncClient) -> None:
    kb = await knowledge_base(client, "beir", DOCS)
    queries = "".join(json.dumps(q) + "\n" for q in QUERIES[:2])
    qrels = "query-id\tcorpus-id\tscore\nq1\tleave\t1\nq2\tpension\t1\n"
    response = await client.post(
        f"/v1/knowledge-bases/{kb}/evaluations",
        files={
            "queries": ("queries.jsonl", queries, "application/jsonl"),
            "qrels": ("test.tsv", qrels, "text/tab-separated-values"),
        },
        data={"configurations": json.dumps([{"name": "text", "mode": "text"}])},
    )
    assert response.status_code == 202, response.text
    body = await finished(client, kb, response.json()["id"])
    measures = body["results"]["configurations"][0]["measures"]
    assert measures == {
        "ndcg_at_10": 1.0,
        "recall_at_10": 1.0,
        "recall_at_100": 1.0,
        "mrr_at_10": 1.0,
    }


BAD_BODIES: list[dict[str, Any]] = [
    {"queries": QUERIES, "qrels": QRELS, "configurations": [{"name": "x", "query": "y"}]},
    {"queries": QUERIES, "qrels": QRELS, "configurations": [{"name": "x", "mode": "nope"}]},
    {"queries": QUERIES, "qrels": QRELS, "configurations": [{"name": "x"}, {"name": "x"}]},
    {"queries": [], "qrels": QRELS},
    {"queries": QUERIES},
    {"queries": [*QUERIES, QUERIES[0]], "qrels": QRELS},
]


async def test_bad_evaluations_are_422(client: httpx.AsyncClient) -> None:
    kb = await knowledge_base(client, "bad", {})
    for body in BAD_BODIES:
        response = await client.post(f"/v1/knowledge-bases/{kb}/evaluations", json=body)
        assert response.status_code == 422, (body, response.text)
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["type"].endswith("/validation-error")
        assert response.json()["errors"]


async def test_other_media_types_and_unknown_ids(client: httpx.AsyncClient) -> None:
    kb = await knowledge_base(client, "media", {})
    response = await client.post(
        f"/v1/knowledge-bases/{kb}/evaluations",
        content=b"q1",
        headers={"content-type": "text/plain"},
    )
    assert response.status_code == 415
    missing = await client.get(
        f"/v1/knowledge-bases/{kb}/evaluations/00000000-0000-0000-0000-000000000000"
    )
    assert missing.status_code == 404
    malformed = await client.post(
        f"/v1/knowledge-bases/{kb}/evaluations",
        files={"queries": ("q.jsonl", "{}\n", "application/jsonl")},
    )
    assert malformed.status_code == 422
