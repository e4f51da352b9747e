"""Service settings: one object, read from the environment (prefix ARBOR_, plus DATABASE_URL)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    """Everything configurable about one Arbor process."""

    model_config = SettingsConfigDict(env_prefix="ARBOR_", extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    database_url: str | None = Field(
        default=None, validation_alias=AliasChoices("DATABASE_URL", "ARBOR_DATABASE_URL")
    )
    data_dir: Path = Path("./data")
    # The embedded server's shared_buffers (e.g. "2GB"); default a quarter of RAM, at most 1 GB.
    embedded_shared_buffers: str | None = None
    model_dir: Path = Path("./models")
    host: str = "127.0.0.1"
    port: int = Field(default=8000, validation_alias=AliasChoices("PORT", "ARBOR_PORT"))
    log_level: str = "info"
    db_pool_size: int = 10
    db_max_overflow: int = 10
    db_connect_timeout_s: float = 10.0
    # Read replicas (docs/scaling.md): streaming standbys of DATABASE_URL, comma-separated.
    # Routes that only read use a healthy one; unset, everything uses DATABASE_URL.
    database_read_urls: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        validation_alias=AliasChoices("DATABASE_READ_URLS", "ARBOR_DATABASE_READ_URLS"),
    )
    # A replica further behind the primary than this is skipped until it catches up.
    replica_max_lag_s: float = Field(default=5.0, gt=0)
    # For a database sharded by project (Citus, docs/scaling.md): every ORM statement of a
    # scoped transaction names its project, so it goes to one shard. Off on one Postgres,
    # where row-level security already keeps other projects out and the condition only costs
    # (about 0.3 ms of a simple read: docs/benchmarks.md, "Search over HTTP").
    sql_names_project: bool = False
    # How often each replica's reachability and replay position are checked.
    replica_check_s: float = Field(default=1.0, gt=0)
    # How long the service waits for an external DATABASE_URL to answer at start-up (compose).
    db_wait_s: float = 60.0
    max_upload_bytes: int = 50 * 1024 * 1024
    # A chunk bulk request's body (`POST .../chunks/bulk`): 50,000 chunks of about 1,000
    # characters with base64 vectors take about 150 MB, with vectors as JSON numbers 250 MB.
    max_bulk_bytes: int = 256 * 1024 * 1024
    # Any other JSON body, which FastAPI reads whole and parses into Python objects (about ten
    # times its size in memory): the largest legitimate one, an enrichment PATCH of thousands
    # of nodes or 128 texts to embed, stays well under it.
    max_json_body_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    # The memory one document's ingestion (parse, tree, chunks) may take; the text and XML
    # limits that keep it there are derived from it (ParseLimits.within), and a document
    # over them fails with an error naming this setting.
    ingest_memory_mb: int = Field(default=1024, ge=64)
    default_page_size: int = 20
    # Background ingestion: in-process workers (0: only `arbor worker` processes run jobs).
    workers: int = 4
    # HTTP processes of `arbor serve`. Above 1 they share one listening socket (uvicorn's
    # supervisor) and the `workers` job loops run in one process of their own beside them.
    http_workers: int = Field(default=1, ge=1)
    # Ingest jobs of one knowledge base a worker claims and runs together when they queue up:
    # one transaction per stage and full model batches for the lot (1: one at a time).
    ingest_batch_size: int = Field(default=16, ge=1)
    # ... and at most this many uploaded bytes besides the first job's, which bounds the
    # memory a batch holds (one large upload runs alone).
    ingest_batch_bytes: int = Field(default=8 * 1024 * 1024, ge=0)
    # Graph jobs (enrichment, extraction: docs/graph.md) running at once across the instance;
    # they run only when no other job is runnable.
    graph_max_running: int = Field(default=2, ge=1)
    job_lease_s: float = 60.0
    job_poll_s: float = 1.0
    job_max_attempts: int = 5
    job_retry_base_s: float = 2.0
    embed_batch_size: int = 32
    # One-thread model runs the built-in model makes at once; None = one per core.
    embed_threads: int | None = None
    max_wait_s: float = 600.0
    max_page_size: int = 200
    # Authentication (docs in README, "Authentication"). ARBOR_ADMIN_KEY turns it on; `auto` is
    # off only on a loopback bind outside production, `off` is refused on any other bind.
    admin_key: SecretStr | None = None
    auth: Literal["auto", "on", "off"] = "auto"
    # Where the generated first admin key is written (0600) when auth is on without a key.
    admin_key_file: Path | None = None
    # Requests per minute per API key; 0 turns the limit off. Unset: off for the embedded
    # zero-config server and with auth off, 600 otherwise.
    rate_limit_per_minute: int | None = Field(default=None, ge=0)
    # Audit events older than this are pruned; 0 keeps them forever.
    audit_retention_days: int = Field(default=90, ge=0)
    # Events (GET /v1/events) older than this are pruned; 0 keeps them forever.
    event_retention_days: int = Field(default=7, ge=0)
    # How often the pruning and index-upkeep sweeps run, once per period across every process
    # on the database (app/kit/periodic.py).
    housekeeping_every_s: float = Field(default=3600.0, gt=0)
    # Webhooks (docs/webhooks.md). Delivery runs beside the job loops (`workers` > 0).
    webhook_timeout_s: float = Field(default=10.0, gt=0)
    # Failed deliveries wait min(2**attempts * base, max) before the next try.
    webhook_retry_base_s: float = Field(default=10.0, gt=0)
    webhook_retry_max_s: float = Field(default=3600.0, gt=0)
    # A webhook failing without a break for this long is deactivated.
    webhook_disable_after_h: float = Field(default=72.0, gt=0)
    # Destinations on loopback, private, link-local, ... addresses; always allowed in
    # development and test.
    webhook_allow_private: bool = False
    webhook_poll_s: float = Field(default=1.0, gt=0)
    # How long a claimed webhook stays claimed while its events are sent.
    webhook_lease_s: float = Field(default=60.0, gt=0)
    # Events sent per claim, and webhooks a process delivers to at once.
    webhook_batch_size: int = Field(default=100, ge=1)
    webhook_concurrency: int = Field(default=8, ge=1)
    # Chat model for answers (docs/answers.md): any OpenAI-compatible endpoint. Unset base URL:
    # no LLM, answers use the extractive generator. The key is read from the environment
    # variable *named* by llm_api_key_env, so it never sits in this process's settings dump.
    llm_base_url: str | None = None
    llm_model: str = ""
    llm_api_key_env: str | None = None
    llm_max_tokens: int = Field(default=4096, ge=1)
    llm_temperature: float = Field(default=0.3, ge=0.0, le=2.0)
    # Longest silence between two bytes of an answer, and to open a connection.
    llm_timeout_s: float = Field(default=60.0, gt=0)
    llm_connect_timeout_s: float = Field(default=10.0, gt=0)
    # Retries on 429/5xx/timeouts before the first byte; a longer Retry-After fails at once.
    llm_max_retries: int = Field(default=3, ge=0)
    llm_max_retry_after_s: float = Field(default=30.0, ge=0)
    # Ask for token usage in streams (`stream_options`); turn off for servers that refuse it.
    llm_stream_usage: bool = True
    # Answers (docs/answers.md): record the answer text in the audit log too (the question,
    # sources and generator always are), and how often a waiting stream sends a keep-alive.
    answer_audit_text: bool = False
    answer_keepalive_s: float = Field(default=15.0, gt=0)
    # Knowledge sources and URL uploads (docs/sources.md). Folders a `folder` source may read:
    # none by default; several separated by the path separator (`:`).
    source_roots: Annotated[list[Path], NoDecode] = Field(default_factory=list)
    # Fetches (http sources, `{"url": ...}` uploads) to loopback, private and link-local
    # addresses; unset: allowed in development and test only. Metadata addresses stay refused.
    source_allow_private: bool | None = None
    # Networks fetched from whatever the setting above says (comma-separated CIDR blocks).
    source_allowed_networks: Annotated[list[str], NoDecode] = Field(default_factory=list)
    source_fetch_timeout_s: float = Field(default=30.0, gt=0)
    source_max_page_bytes: int = Field(default=20 * 1024 * 1024, ge=1)
    source_max_redirects: int = Field(default=5, ge=0)
    # Pages one http source may hold (its URLs, sitemap entries and crawled pages together).
    source_max_pages: int = Field(default=1000, ge=1)
    # Scheduled syncs running at once across the instance, and how often schedules are read.
    source_sync_concurrency: int = Field(default=2, ge=1)
    source_schedule_poll_s: float = Field(default=15.0, gt=0)

    # Operations (docs/operations.md). Logs: `text`, or `json` (one object per line).
    log_format: Literal["text", "json"] = "text"
    # Search analytics: rows older than this are pruned hourly (0 keeps them); `off` keeps
    # no query text (counts, latencies and scores only).
    analytics_retention_days: int = Field(default=30, ge=0)
    analytics_text: bool = True

    @field_validator("admin_key", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        # `ARBOR_ADMIN_KEY=` (compose passes an unset variable as empty) means no key.
        return None if value == "" else value

    @field_validator("source_roots", mode="before")
    @classmethod
    def _paths(cls, value: object) -> object:
        if isinstance(value, str):
            return [part for part in value.split(os.pathsep) if part.strip()]
        return value

    @field_validator("source_allowed_networks", "database_read_urls", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @property
    def ingest_memory_bytes(self) -> int:
        return self.ingest_memory_mb * 1024 * 1024

    @property
    def embedded_pg_dir(self) -> Path:
        return self.data_dir / "pg"

    @property
    def bootstrap_key_file(self) -> Path:
        return self.admin_key_file or self.data_dir / "admin-key"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
