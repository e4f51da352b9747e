"""GET /metrics after real requests: request, search, ingestion, embedding, state gauges."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

from tests.operations.helpers import knowledge_base, samples, value

SEARCH_ROUTE = "/v1/knowledge-bases/{kb}/search"


async def scrape(client: httpx.AsyncClient) -> str:
    response = await client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return response.text


async def test_metrics_count_requests_searches_and_ingestion(client: httpx.AsyncClient) -> None:
    before = samples(await scrape(client))
    kb = await knowledge_base(
        client, "metrics", {"a": "# Leave\n\nTwenty-five days of leave a year.", "b": "Pension."}
    )
    secret_query = "zebra-unique-query-text"
    for query in ("leave", secret_query):
        found = await client.post(
            f"/v1/knowledge-bases/{kb}/search", json={"query": query, "mode": "text"}
        )
        assert found.status_code == 200
    missing = await client.get("/v1/knowledge-bases/nope/documents")
    assert missing.status_code == 404

    exposition = await scrape(client)
    after = samples(exposition)

    def delta(name: str, **labels: object) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    ok = {"method": "POST", "route": SEARCH_ROUTE, "status": "200"}
    assert delta("arbor_http_requests_total", **ok) == 2
    assert delta("arbor_http_request_duration_seconds_count", **ok) == 2
    not_found = {"method": "GET", "route": "/v1/knowledge-bases/{kb}/documents", "status": "404"}
    assert delta("arbor_http_requests_total", **not_found) == 1
    assert delta("arbor_search_duration_seconds_count", mode="text") == 2
    assert delta("arbor_search_candidates_count", side="text") == 2
    assert delta("arbor_search_hits_count") == 2
    for stage in ("parse", "chunk", "embed", "store"):
        assert delta("arbor_ingest_stage_duration_seconds_count", stage=stage) >= 1, stage
    assert delta("arbor_embedding_texts_total") >= 2
    assert delta("arbor_embedding_batch_size_count") >= 1
    assert value(after, "arbor_documents", status="ready") >= 2
    assert value(after, "arbor_chunks", embedded="true") >= 2
    assert value(after, "arbor_db_pool_size") >= 1
    assert ("arbor_db_pool_waiting", ()) in after
    # Bounded labels only: no knowledge base id, no path, no query text.
    assert kb not in exposition
    assert secret_query not in exposition
    assert "/v1/knowledge-bases/nope" not in exposition


def test_metrics_of_several_processes_are_merged(tmp_path: Path) -> None:
    """With PROMETHEUS_MULTIPROC_DIR (arbor serve, ARBOR_HTTP_WORKERS > 1), what each
    process counted is in the exposition any one of them answers."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    record = (
        "from app.observability import metrics; "
        "metrics.record_request(method='GET', route='/healthz', status=200, seconds=0.01)"
    )
    for _ in range(2):
        subprocess.run([sys.executable, "-c", record], env=env, check=True, timeout=60)
    merged = subprocess.run(
        [
            sys.executable,
            "-c",
            "from app.observability import metrics; print(metrics.exposition().decode())",
        ],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    found = samples(merged)
    assert (
        value(found, "arbor_http_requests_total", method="GET", route="/healthz", status="200") == 2
    )


def test_the_dashboard_and_the_docs_name_only_metrics_that_exist() -> None:
    import re

    from prometheus_client.registry import REGISTRY

    known = {
        sample_name
        for family in REGISTRY.collect()
        for sample_name in (
            family.name,
            f"{family.name}_total",
            f"{family.name}_bucket",
            f"{family.name}_sum",
            f"{family.name}_count",
        )
    }
    root = Path(__file__).resolve().parents[2] / "docs"
    for name in ("grafana-dashboard.json", "operations.md"):
        used = set(re.findall(r"\barbor_[a-z_]+", (root / name).read_text()))
        used = {u for u in used if u not in {"arbor_app", "arbor_restored", "arbor_project_id"}}
        assert used, name
        assert used <= known, (name, sorted(used - known))
