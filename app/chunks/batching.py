"""Coalesce concurrent embedding calls into full batches, one model call at a time.

Ingestion runs several documents at once, and a short document has one or two chunks; the
model is far faster per text on a batch of 32 than on 32 batches of one. Jobs hand their texts
to the batcher, which fills batches across jobs and runs them in one thread off the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from app.chunks.embedding import DocumentEmbedder
from app.observability.metrics import record_embedding


@dataclass
class _Request:
    texts: Sequence[str]
    future: asyncio.Future[np.ndarray]


class BatchingEmbedder:
    """Async front for one embedder; `embed` returns vectors in input order."""

    def __init__(
        self, embedder: DocumentEmbedder, *, max_batch: int = 32, max_wait_s: float = 0.005
    ) -> None:
        self.embedder = embedder
        self.max_batch = max_batch
        self.max_wait_s = max_wait_s
        self._queue: asyncio.Queue[_Request] = asyncio.Queue()
        self._runner: asyncio.Task[None] | None = None

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.embedder.dimensions), dtype=np.float32)
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run(), name="arbor-embed-batcher")
        future: asyncio.Future[np.ndarray] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Request(texts, future))
        return await future

    async def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner

    async def _collect(self) -> list[_Request]:
        batch = [await self._queue.get()]
        size = len(batch[0].texts)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.max_wait_s
        while size < self.max_batch:
            timeout = deadline - loop.time()
            if timeout <= 0 and self._queue.empty():
                break
            try:
                request = (
                    self._queue.get_nowait()
                    if not self._queue.empty()
                    else await asyncio.wait_for(self._queue.get(), timeout)
                )
            except TimeoutError:
                break
            batch.append(request)
            size += len(request.texts)
        return batch

    async def _run(self) -> None:
        while True:
            batch = await self._collect()
            texts = [text for request in batch for text in request.texts]
            started = time.perf_counter()
            try:
                vectors = await asyncio.to_thread(self.embedder.embed_documents, texts)
            except Exception as exc:  # delivered to every caller of this batch
                for request in batch:
                    if not request.future.done():
                        request.future.set_exception(exc)
                continue
            record_embedding(texts=len(texts), seconds=time.perf_counter() - started)
            start = 0
            for request in batch:
                end = start + len(request.texts)
                if not request.future.done():
                    request.future.set_result(vectors[start:end])
                start = end


class Batchers:
    """One batcher per embedder instance, shared by every job of a worker pool."""

    def __init__(self, *, max_batch: int) -> None:
        self.max_batch = max_batch
        self._by_embedder: dict[int, BatchingEmbedder] = {}

    def get(self, embedder: DocumentEmbedder) -> BatchingEmbedder:
        key = id(embedder)
        if key not in self._by_embedder:
            self._by_embedder[key] = BatchingEmbedder(embedder, max_batch=self.max_batch)
        return self._by_embedder[key]

    async def close(self) -> None:
        for batcher in self._by_embedder.values():
            await batcher.close()
