"""The ASGI application: routers, error handlers and the database lifecycle."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI
from pydantic.json_schema import models_json_schema

from app.analytics import service as analytics
from app.analytics.router import router as analytics_router
from app.answers.router import router as answers_router
from app.audit import service as audit
from app.audit.middleware import AuditMiddleware
from app.audit.router import router as audit_router
from app.auth import mode as auth_mode
from app.auth.ratelimit import RateLimiter
from app.auth.service import ensure_bootstrap_key
from app.chunks import index_upkeep
from app.chunks.embedding import EmbedderFactory
from app.chunks.providers import default_embedder_factory
from app.chunks.router import router as chunks_router
from app.chunks.schemas import ChunkBulkUpsert
from app.compat.dify import router as dify_router
from app.config import Settings, get_settings
from app.db.consistency import ConsistencyMiddleware
from app.db.embedded import EmbeddedPostgres
from app.db.engine import Database
from app.documents.enrichment_router import router as enrichment_router
from app.documents.router import router as documents_router
from app.documents.schemas import DocumentBatchCreate, DocumentCreate, DocumentFromUrl
from app.documents.transfer import DocumentTransfer
from app.documents.transfer_router import router as transfer_router
from app.documents.worker_pool import worker_pool
from app.embeddings.router import router as embeddings_router
from app.evaluations.router import router as evaluations_router
from app.evaluations.schemas import EvaluationCreate
from app.events import service as events
from app.events.router import router as events_router
from app.graph.answers import GraphAnswers
from app.graph.router import router as graph_router
from app.health.router import Check
from app.health.router import router as health_router
from app.jobs.router import router as jobs_router
from app.jobs.worker import WorkerPool
from app.kit.bodies import JsonBodyLimit
from app.kit.heap import freeze_startup_heap
from app.kit.paths import UnstorablePathMiddleware
from app.kit.periodic import every
from app.kit.problems import Problem, declare_problems, install_problem_handlers
from app.knowledge_bases.router import router as knowledge_bases_router
from app.llm import get_chat_client
from app.mcp import server as mcp_server
from app.observability import tracing
from app.observability.middleware import ObservabilityMiddleware
from app.observability.router import router as operations_router
from app.parse.router import router as parse_router
from app.parse.schemas import ParseRequest
from app.projects.router import router as projects_router
from app.search.router import router as search_router
from app.sources import service as sources
from app.sources.router import router as sources_router
from app.tools.router import router as tools_router
from app.ui.router import router as ui_router
from app.webhooks.dispatcher import WebhookDispatcher
from app.webhooks.router import router as webhooks_router

logger = logging.getLogger(__name__)

ReadinessProbe = Callable[[], Awaitable[Check]]

# Audit and event pruning.

TAGS = [
    {"name": "knowledge-bases", "description": "Named corpora with a fixed embedding model."},
    {"name": "documents", "description": "Uploads, their trees and ingestion progress."},
    {"name": "chunks", "description": "Retrievable slices of documents, with lineage and vectors."},
    {"name": "search", "description": "Hybrid, vector and full-text search with filters."},
    {"name": "parse", "description": "Text or files turned into document trees, storing nothing."},
    {"name": "embeddings", "description": "Vectors from a knowledge base's embedding model."},
    {"name": "jobs", "description": "Background work: ingestion, re-embedding."},
    {"name": "projects", "description": "Tenants and their API keys (admin scope)."},
    {"name": "audit", "description": "Who searched and wrote what, when (admin scope)."},
    {
        "name": "events",
        "description": "What happened to knowledge bases and documents, as a feed to follow.",
    },
    {"name": "webhooks", "description": "The event feed pushed to URLs, signed (admin scope)."},
    {
        "name": "sources",
        "description": "Folders, web pages and pushed records kept in sync as documents.",
    },
    {"name": "graph", "description": "Entities and relations from documents, graph search."},
    {"name": "health", "description": "Liveness and readiness."},
    {"name": "tools", "description": "Agent tools as OpenAI function definitions, and calls."},
    {"name": "compat", "description": "Other products' APIs: Dify's external knowledge."},
    {"name": "answers", "description": "Grounded, cited answers from knowledge bases (RAG)."},
    {"name": "analytics", "description": "What knowledge bases are asked (admin scope)."},
    {"name": "evaluations", "description": "Retrieval quality measured on judged queries."},
    {"name": "operations", "description": "Prometheus metrics (admin scope)."},
]


def app_from_environment() -> FastAPI:
    """One HTTP process of `arbor serve` with `http_workers` > 1 (uvicorn's app factory): its
    settings come from the environment, where the parent put the database URL and no job
    loops (`app.cli.serve_processes`)."""
    return create_app(get_settings())


def create_app(
    settings: Settings | None = None,
    *,
    database_url: str | None = None,
    embedder_factory: EmbedderFactory | None = None,
) -> FastAPI:
    """Build the app; without a database URL it starts the embedded Postgres in its lifespan."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Refuses to start (UnsafeConfiguration) before anything is listening.
        mode = auth_mode.resolve(settings)
        auth_mode.announce(mode, settings)
        app.state.auth_mode = mode
        url = database_url or settings.database_url
        embedded: EmbeddedPostgres | None = None
        if url is None:
            embedded = EmbeddedPostgres(
                settings.embedded_pg_dir, shared_buffers=settings.embedded_shared_buffers
            )
            url = embedded.start()
            embedded.watch()
        app.state.database = Database(url, settings)
        app.state.chat_client = get_chat_client(settings)
        app.state.rate_limiter = RateLimiter(app.state.database, mode.rate_limit_per_minute)
        if mode.enabled and settings.admin_key is None:
            await ensure_bootstrap_key(app.state.database, settings)
        pool: WorkerPool | None = None
        dispatcher: WebhookDispatcher | None = None
        for probe in app.state.readiness_probes:
            await probe()  # loads the built-in model now rather than on the first upload
        if settings.workers > 0:
            pool = worker_pool(
                app.state.database,
                settings,
                app.state.embedder_factory,
                concurrency=settings.workers,
            )
            pool.start()
            app.state.poke_workers = pool.poke
            app.state.jobs_ran = pool.ran
            # Webhook delivery is background work too: it runs where the job loops run.
            dispatcher = WebhookDispatcher(app.state.database, settings)
            dispatcher.start()
        database = app.state.database
        housekeeping = [
            asyncio.create_task(
                every(
                    settings.housekeeping_every_s,
                    lambda: audit.prune(database, retention_days=settings.audit_retention_days),
                    what="audit pruning",
                    shared=database,
                ),
                name="arbor-audit-prune",
            ),
            asyncio.create_task(
                every(
                    settings.housekeeping_every_s,
                    lambda: events.prune(database, retention_days=settings.event_retention_days),
                    what="event pruning",
                    shared=database,
                ),
                name="arbor-event-prune",
            ),
            asyncio.create_task(
                every(
                    settings.housekeeping_every_s,
                    lambda: analytics.prune(
                        database, retention_days=settings.analytics_retention_days
                    ),
                    what="search analytics pruning",
                    shared=database,
                ),
                name="arbor-analytics-prune",
            ),
            asyncio.create_task(
                every(
                    settings.housekeeping_every_s,
                    lambda: index_upkeep.sweep(database),
                    what="vector index upkeep",
                    shared=database,
                ),
                name="arbor-index-upkeep",
            ),
        ]
        replicas = database.replicas
        if replicas is not None:
            housekeeping.append(
                asyncio.create_task(
                    every(
                        replicas.check_s,
                        lambda: replicas.check(database.engine),
                        what="read replica checks",
                    ),
                    name="arbor-replica-checks",
                )
            )
        if settings.workers > 0:
            # Scheduled syncs are queued where the job loops run.
            housekeeping.append(
                asyncio.create_task(
                    every(
                        settings.source_schedule_poll_s,
                        lambda: sources.enqueue_due(database, settings),
                        what="source schedules",
                        shared=database,
                    ),
                    name="arbor-source-schedules",
                )
            )
        freeze_startup_heap()
        try:
            async with mcp_server.running(app):
                yield
        finally:
            for task in housekeeping:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if dispatcher is not None:
                await dispatcher.stop()
            if pool is not None:
                await pool.stop()
            await app.state.database.dispose()
            if app.state.chat_client is not None:
                await app.state.chat_client.aclose()
            if embedded is not None:
                embedded.stop()

    app = FastAPI(
        title="Arbor",
        version="0.1.0",
        summary="Knowledge bases as trees, chunks with lineage, hybrid search on Postgres.",
        openapi_tags=TAGS,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.readiness_probes = []
    app.state.poke_workers = lambda: None
    app.state.jobs_ran = None
    app.state.chat_client = None
    if embedder_factory is None:
        registry_embedders = default_embedder_factory(settings)
        app.state.readiness_probes.append(registry_embedders.readiness)
        embedder_factory = registry_embedders
    app.state.embedder_factory = embedder_factory
    # The knowledge graph's side of answers' retrieval (app/answers/retrieval.py).
    app.state.graph_context_provider = GraphAnswers(embedder_factory)
    install_problem_handlers(app)
    app.add_middleware(JsonBodyLimit, limit=settings.max_json_body_bytes)
    app.add_middleware(AuditMiddleware)
    # Read-your-writes with read replicas: the token a read presents, the one a write answers.
    app.add_middleware(ConsistencyMiddleware)
    # Outermost: a path no resource can have is answered before anything records or reads it.
    app.add_middleware(UnstorablePathMiddleware)
    # Around everything: the request id, span and metrics cover every answer, even those.
    tracing.configure_from_environment()
    app.add_middleware(ObservabilityMiddleware)
    app.include_router(health_router)
    app.include_router(knowledge_bases_router)
    app.include_router(documents_router)
    app.include_router(enrichment_router)
    app.include_router(transfer_router)
    app.include_router(chunks_router)
    app.include_router(jobs_router)
    app.include_router(search_router)
    app.include_router(parse_router)
    app.include_router(embeddings_router)
    app.include_router(projects_router)
    app.include_router(audit_router)
    app.include_router(events_router)
    app.include_router(webhooks_router)
    app.include_router(tools_router)
    app.include_router(dify_router)
    mcp_server.mount(app)
    app.include_router(answers_router)
    app.include_router(ui_router)
    app.include_router(sources_router)
    app.include_router(analytics_router)
    app.include_router(evaluations_router)
    app.include_router(operations_router)
    app.include_router(graph_router)
    _register_problem_schema(app)
    return app


def _register_problem_schema(app: FastAPI) -> None:
    """Name the schemas that routes reference by hand (problems, the bodies read by hand)."""
    original = app.openapi

    def openapi() -> dict[str, object]:
        if app.openapi_schema is None:
            schema = original()
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            _, named = models_json_schema(
                [
                    (model, "validation")
                    for model in (
                        Problem,
                        DocumentCreate,
                        DocumentFromUrl,
                        DocumentBatchCreate,
                        ChunkBulkUpsert,
                        ParseRequest,
                        DocumentTransfer,
                        EvaluationCreate,
                    )
                ],
                ref_template="#/components/schemas/{model}",
            )
            for name, definition in named.get("$defs", {}).items():
                components.setdefault(name, definition)
            declare_problems(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
