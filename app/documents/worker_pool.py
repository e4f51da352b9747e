"""The worker pool of a service or `arbor worker`: every job kind and its handler."""

from __future__ import annotations

from app.chunks import deferred_index
from app.chunks.backfill import Backfiller
from app.chunks.batching import Batchers
from app.chunks.deferred_index import IndexBuilder
from app.chunks.embedding import EmbedderFactory
from app.config import Settings
from app.db.engine import Database
from app.documents.pipeline import Ingestor
from app.evaluations import service as evaluations
from app.graph import stage as graph_stage
from app.jobs.worker import WorkerPool
from app.llm import get_chat_client
from app.search import text_statistics
from app.sources.sync import JOB_KIND as SYNC_JOB_KIND
from app.sources.sync import Syncer, SyncJobs


def worker_pool(
    database: Database, settings: Settings, embedders: EmbedderFactory, *, concurrency: int
) -> WorkerPool:
    """The pool that runs this service's jobs: ingest, reindex, and embedding backfills."""
    batchers = Batchers(max_batch=settings.embed_batch_size)
    ingestor = Ingestor(database, settings, embedders, batchers)
    backfiller = Backfiller(database, settings, embedders, batchers)
    refresher = text_statistics.Refresher(database)
    index_builder = IndexBuilder(database)
    syncer = Syncer(database, settings)
    # One chat client for the pool's graph jobs (knowledge bases whose extractor is `llm`).
    chat_client = get_chat_client(settings)
    graph = graph_stage.stage_for(database, settings, embedders, lambda: chat_client)
    handlers = {
        evaluations.JOB_KIND: evaluations.Evaluator(database, settings, embedders).handle,
        graph_stage.JOB_KIND: graph.handle,
        "embed": backfiller.handle,
        SYNC_JOB_KIND: SyncJobs(syncer).handle,
        text_statistics.JOB_KIND: refresher.handle,
        deferred_index.JOB_KIND: index_builder.handle,
    }
    pool = WorkerPool(
        database,
        settings,
        handlers,
        concurrency=concurrency,
        batch_handlers={"ingest": ingestor.handle_batch, "reindex": ingestor.handle_batch},
        batch_size=settings.ingest_batch_size,
    )
    pool.on_stop.append(batchers.close)
    if chat_client is not None:
        pool.on_stop.append(chat_client.aclose)
    syncer.poke = pool.poke  # documents a sync queued start at once
    return pool
