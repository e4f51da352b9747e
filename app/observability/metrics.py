"""Prometheus metrics: one registry per process, merged across processes when several serve.

`arbor serve` with `ARBOR_HTTP_WORKERS` > 1 sets PROMETHEUS_MULTIPROC_DIR for its children
(app/cli.py), and prometheus-client then keeps every value in a memory-mapped file there; the
process answering `GET /metrics` merges them all. Labels are bounded sets only: route
templates (never paths), status codes, modes, stages, kinds. No knowledge base or document id,
no query text, ever: those would grow without bound and leak what users search for.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.registry import REGISTRY

from app.observability import tracing

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST

# Seconds: from a cached 2 ms search to a minute-long ingestion stage.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
STAGE_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0)
COUNT_BUCKETS = (0, 1, 5, 10, 25, 50, 100, 200, 500, 1000)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)

REQUESTS = Counter("arbor_http_requests", "HTTP requests answered.", ["method", "route", "status"])
REQUEST_SECONDS = Histogram(
    "arbor_http_request_duration_seconds",
    "Time to answer an HTTP request, by route template.",
    ["method", "route", "status"],
    buckets=LATENCY_BUCKETS,
)
SEARCH_SECONDS = Histogram(
    "arbor_search_duration_seconds",
    "Search handler time by the mode that ran.",
    ["mode"],
    buckets=LATENCY_BUCKETS,
)
SEARCH_CANDIDATES = Histogram(
    "arbor_search_candidates",
    "Candidates each side of a search produced before fusion.",
    ["side"],
    buckets=COUNT_BUCKETS,
)
SEARCH_HITS = Histogram("arbor_search_hits", "Hits a search returned.", buckets=COUNT_BUCKETS)
STAGE_SECONDS = Histogram(
    "arbor_ingest_stage_duration_seconds",
    "Time of one ingestion stage over one batch of documents.",
    ["stage"],
    buckets=STAGE_BUCKETS,
)
EMBED_TEXTS = Counter("arbor_embedding_texts", "Texts embedded by the ingestion batchers.")
EMBED_SECONDS = Counter(
    "arbor_embedding_seconds", "Time spent in embedding model calls (texts/s = texts / seconds)."
)
EMBED_BATCH = Histogram(
    "arbor_embedding_batch_size", "Texts per embedding model call.", buckets=BATCH_BUCKETS
)
WEBHOOK_DELIVERIES = Counter(
    "arbor_webhook_deliveries", "Webhook deliveries by outcome.", ["outcome"]
)
WEBHOOK_LAG = Histogram(
    "arbor_webhook_delivery_lag_seconds",
    "From an event's commit to its delivery being accepted.",
    buckets=(0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 3600.0),
)
LLM_CALLS = Counter(
    "arbor_llm_calls",
    "Chat model calls by provider, model and outcome.",
    ["provider", "model", "outcome"],
)
LLM_TOKENS = Counter(
    "arbor_llm_tokens", "Tokens of chat model calls.", ["provider", "model", "direction"]
)
LLM_SECONDS = Histogram(
    "arbor_llm_call_duration_seconds",
    "Chat model call time.",
    ["provider", "model"],
    buckets=LATENCY_BUCKETS,
)
SOURCE_SYNC_RUNS = Counter(
    "arbor_source_sync_runs",
    "Source sync runs ended, by source kind, outcome and whether it was a dry run.",
    ["kind", "outcome", "dry_run"],
)
SOURCE_SYNC_ITEMS = Counter(
    "arbor_source_sync_items",
    "Source items real sync runs and pushed records added, updated, deleted, failed or left "
    "unchanged.",
    ["kind", "action"],
)
SOURCE_SYNC_SECONDS = Histogram(
    "arbor_source_sync_duration_seconds",
    "Time of a real sync run, from its start to its end (a resumed run from its first start).",
    ["kind"],
    buckets=(0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 3600.0, 14400.0),
)
SOURCE_HEALTH_CHECKS = Counter(
    "arbor_source_health_checks",
    "Source health checks by source kind and outcome (ok, failing).",
    ["kind", "outcome"],
)
# A run's counts (`SourceRun.counts`) as the `action` label.
SYNC_ACTIONS = {
    "to_add": "added",
    "to_update": "updated",
    "to_delete": "deleted",
    "failed": "failed",
    "unchanged": "unchanged",
}
ANALYTICS_DROPPED = Counter(
    "arbor_search_analytics_dropped", "Search analytics rows that could not be written."
)

# Set at scrape time from the database (one process answers a scrape: most recent wins).
DOCUMENTS = Gauge(
    "arbor_documents", "Documents by status.", ["status"], multiprocess_mode="mostrecent"
)
CHUNKS = Gauge(
    "arbor_chunks",
    "Chunks of documents, by whether they have a vector.",
    ["embedded"],
    multiprocess_mode="mostrecent",
)
JOBS = Gauge(
    "arbor_jobs", "Jobs by kind and status.", ["kind", "status"], multiprocess_mode="mostrecent"
)
JOB_OLDEST_AGE = Gauge(
    "arbor_job_oldest_queued_age_seconds",
    "Age of the oldest runnable queued job, by kind (0: none queued).",
    ["kind"],
    multiprocess_mode="mostrecent",
)
WEBHOOKS_FAILING = Gauge(
    "arbor_webhooks_failing",
    "Active webhooks whose last delivery failed.",
    multiprocess_mode="mostrecent",
)
# Per process, summed over the live ones.
DB_POOL_IN_USE = Gauge(
    "arbor_db_pool_in_use", "Database connections checked out.", multiprocess_mode="livesum"
)
DB_POOL_SIZE = Gauge(
    "arbor_db_pool_size", "Connections the pool keeps (its size).", multiprocess_mode="livesum"
)
DB_POOL_WAITING = Gauge(
    "arbor_db_pool_waiting",
    "Transactions waiting for a pooled connection.",
    multiprocess_mode="livesum",
)

# Read replicas (docs/scaling.md): set by each process's health check of its replicas.
DB_REPLICA_LAG = Gauge(
    "arbor_db_replica_lag_seconds",
    "How far a read replica's data is behind the primary (at most; 0: caught up).",
    ["replica"],
    multiprocess_mode="mostrecent",
)
DB_REPLICA_HEALTHY = Gauge(
    "arbor_db_replica_healthy",
    "1 when a read replica is reachable and within the lag bound, else 0.",
    ["replica"],
    multiprocess_mode="mostrecent",
)
DB_READS = Counter(
    "arbor_db_read_transactions",
    "Read-only transactions by where they ran: a replica or the primary.",
    ["target"],
)


def multiprocess_enabled() -> bool:
    return bool(os.environ.get(MULTIPROC_ENV))


def exposition() -> bytes:
    """The text exposition of every process's metrics."""
    if multiprocess_enabled():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest(REGISTRY)


def record_request(*, method: str, route: str, status: int, seconds: float) -> None:
    labels = (method, route, str(status))
    REQUESTS.labels(*labels).inc()
    REQUEST_SECONDS.labels(*labels).observe(seconds)


def record_search(
    *, mode: str, seconds: float, vector: int, text: int, trigram: int, hits: int
) -> None:
    SEARCH_SECONDS.labels(mode).observe(seconds)
    SEARCH_CANDIDATES.labels("vector").observe(vector)
    SEARCH_CANDIDATES.labels("text").observe(text)
    SEARCH_CANDIDATES.labels("trigram").observe(trigram)
    SEARCH_HITS.observe(hits)


def record_embedding(*, texts: int, seconds: float) -> None:
    EMBED_TEXTS.inc(texts)
    EMBED_SECONDS.inc(seconds)
    EMBED_BATCH.observe(texts)


def record_webhook_delivery(*, delivered: bool, lag_s: float | None = None) -> None:
    WEBHOOK_DELIVERIES.labels("delivered" if delivered else "failed").inc()
    if delivered and lag_s is not None:
        WEBHOOK_LAG.observe(max(lag_s, 0.0))


def record_llm_call(
    *,
    provider: str,
    model: str,
    seconds: float,
    input_tokens: int = 0,
    output_tokens: int = 0,
    outcome: str = "ok",
) -> None:
    """One chat model call (answers, graph extraction, query analysis all report here), its
    retries included; `outcome`: `ok`, `error` or `cancelled` (its caller stopped it).

    `model` is the configured model name: a bounded set chosen by the operator."""
    LLM_CALLS.labels(provider, model, outcome).inc()
    LLM_SECONDS.labels(provider, model).observe(seconds)
    if input_tokens:
        LLM_TOKENS.labels(provider, model, "input").inc(input_tokens)
    if output_tokens:
        LLM_TOKENS.labels(provider, model, "output").inc(output_tokens)


def record_source_items(*, kind: str, counts: Mapping[str, int]) -> None:
    """Items a sync run or a records push handled, by `SyncPlan` count name."""
    for key, action in SYNC_ACTIONS.items():
        if counts.get(key):
            SOURCE_SYNC_ITEMS.labels(kind, action).inc(counts[key])


def record_source_sync(
    *,
    kind: str,
    failed: bool,
    dry_run: bool,
    seconds: float | None,
    counts: Mapping[str, int],
) -> None:
    """A sync run ended. A dry run changed nothing: it counts as a run, not its items or time."""
    outcome = "failed" if failed else "succeeded"
    SOURCE_SYNC_RUNS.labels(kind, outcome, "true" if dry_run else "false").inc()
    if dry_run:
        return
    if seconds is not None:
        SOURCE_SYNC_SECONDS.labels(kind).observe(max(seconds, 0.0))
    record_source_items(kind=kind, counts=counts)


def record_source_health(*, kind: str, ok: bool) -> None:
    SOURCE_HEALTH_CHECKS.labels(kind, "ok" if ok else "failing").inc()


@contextmanager
def stage(name: str) -> Iterator[None]:
    """Time one ingestion stage (a histogram) and trace it (a span, when tracing is on)."""
    started = time.perf_counter()
    with tracing.span(f"ingest.{name}", {"arbor.stage": name}):
        try:
            yield
        finally:
            STAGE_SECONDS.labels(name).observe(time.perf_counter() - started)
