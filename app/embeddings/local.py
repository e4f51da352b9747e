"""The default local embedder: all-MiniLM-L6-v2 as ONNX, run by onnxruntime on the CPU."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

from app.embeddings.base import EmbedderUnavailable, l2_normalize
from app.ingestion.tokens import TokenSpans

logger = logging.getLogger(__name__)

MANIFEST_VERSION = 1
BUILD_HINT = "run scripts/build-model to build it"
Variant = Literal["int8", "fp32"]
# Dynamic int8 picks its activation scales per batch, so in a batch a text's vector shifts
# with its neighbours (up to 0.035 in cosine, measured) and batch != single. One text per run
# keeps int8 exact per text and costs nothing on full 256-token chunks; only fp32 batches.
DEFAULT_BATCH_SIZE: dict[Variant, int] = {"int8": 1, "fp32": 16}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(model_dir: Path) -> dict[str, Any]:
    """The build's manifest, or EmbedderUnavailable when the build is missing or unverified."""
    path = model_dir / "manifest.json"
    try:
        manifest: dict[str, Any] = json.loads(path.read_text())
    except FileNotFoundError:
        raise EmbedderUnavailable(f"no embedding model at {model_dir}: {BUILD_HINT}") from None
    except (OSError, ValueError) as exc:
        raise EmbedderUnavailable(f"unreadable {path} ({exc}): {BUILD_HINT}") from None
    if manifest.get("manifest_version") != MANIFEST_VERSION:
        raise EmbedderUnavailable(f"{path} is from another build version: {BUILD_HINT}")
    if manifest.get("verification", {}).get("passed") is not True:
        raise EmbedderUnavailable(
            f"the model in {model_dir} did not pass verification: {BUILD_HINT}"
        )
    return manifest


def _session(onnx_path: Path, *, threads: int) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # onnxruntime's pool spin-waits for work between runs: after each query the second thread
    # burned ~10 ms of a core the event loop and Postgres need (API CPU per `embed` request
    # 16 ms for a 1.6 ms model run). Parked threads cost a wake-up, far less.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # onnxruntime's warnings about fused ops are noise here
    return ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])


class WordPieceTokenizer:
    """The model's tokenizer: exact counts for chunking and padded batches for the model."""

    def __init__(self, path: Path, *, max_tokens: int) -> None:
        # Two copies: counting must see the full length, batching must truncate.
        self._counter = Tokenizer.from_file(str(path))
        self._counter.no_truncation()
        self._counter.no_padding()
        self._batcher = Tokenizer.from_file(str(path))
        self._batcher.enable_truncation(max_tokens)
        self._batcher.no_padding()  # padding is done per length-sorted batch, below
        pad_id = self._batcher.token_to_id("[PAD]")
        self.pad_id = 0 if pad_id is None else pad_id

    def count_tokens(self, text: str) -> int:
        """Tokens the model sees for `text`, [CLS] and [SEP] included, before truncation."""
        return len(self._counter.encode(text).ids)

    def token_spans(self, text: str) -> TokenSpans:
        """Where the content tokens and words of `text` lie (for counting its spans)."""
        return TokenSpans.of_text(
            lambda part: self._counter.encode(part, add_special_tokens=False), text
        )

    def encode_ids(self, text: str) -> list[int]:
        """Content token ids of `text`, without special tokens or truncation."""
        return list(self._counter.encode(text, add_special_tokens=False).ids)

    def decode(self, ids: Sequence[int]) -> str:
        """Text of content token ids (lowercased, as the model normalises it)."""
        return self._counter.decode(list(ids))

    def encode_truncated(self, texts: Sequence[str]) -> list[list[int]]:
        """Model input ids per text, special tokens added, truncated to max_tokens."""
        return [list(encoding.ids) for encoding in self._batcher.encode_batch(list(texts))]


class LocalOnnxEmbedder:
    """Embeds with a verified ONNX build from scripts/build-model; thread-safe."""

    name = "local"

    def __init__(
        self,
        model_dir: Path,
        variant: Variant = "int8",
        batch_size: int | None = None,
        threads: int | None = None,
    ) -> None:
        manifest = read_manifest(model_dir)
        entry = manifest.get("files", {}).get(variant)
        if entry is None:
            raise EmbedderUnavailable(f"no {variant} file in {model_dir}: {BUILD_HINT}")
        onnx_path = model_dir / entry["path"]
        tokenizer_path = model_dir / manifest["tokenizer"]["path"]
        # A hash check costs ~0.1 s and turns a half-copied file into a clear message.
        try:
            digest = _sha256(onnx_path)
        except OSError:
            raise EmbedderUnavailable(f"{onnx_path} is missing: {BUILD_HINT}") from None
        if digest != entry["sha256"]:
            raise EmbedderUnavailable(f"{onnx_path} does not match its manifest: {BUILD_HINT}")
        batch_size = DEFAULT_BATCH_SIZE[variant] if batch_size is None else batch_size
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")

        self.model: str = manifest["model"]
        self.variant: str = variant
        self.dimensions: int = int(manifest["dimensions"])
        self.max_tokens: int = int(manifest["max_tokens"])
        self.batch_size = batch_size
        self.tokenizer = WordPieceTokenizer(tokenizer_path, max_tokens=self.max_tokens)

        # `threads` one-thread runs at once rather than one run on `threads` threads: on 2
        # cores two one-thread runs embed 100 chunks/s and one two-thread run 91, and a
        # one-thread run never spin-waits on a core the event loop needs (onnxruntime's pool
        # spins between its tasks; in the server that halved the loop's share of the CPU).
        self.threads = threads or len(os.sched_getaffinity(0))
        self._pool = (
            ThreadPoolExecutor(self.threads, thread_name_prefix="arbor-embed")
            if self.threads > 1
            else None
        )
        self._session = _session(onnx_path, threads=1)
        # A lone query cannot be split across runs: it gets every thread (p50 1.5 ms, not 1.9).
        self._query_session = _session(onnx_path, threads=self.threads)
        self._inputs = {i.name for i in self._session.get_inputs()}
        logger.info(
            "loaded %s (%s, %d parallel runs) from %s",
            self.model,
            variant,
            self.threads,
            model_dir,
        )

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One unit vector per text, in input order; texts past max_tokens are truncated."""
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of texts, not one string")
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return out
        ids = self.tokenizer.encode_truncated(texts)
        # Similar lengths share a batch, so little padding is computed; the longest go first
        # so that the parallel runs finish together.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]), reverse=True)
        batches = [
            order[start : start + self.batch_size]
            for start in range(0, len(order), self.batch_size)
        ]
        inputs = [[ids[i] for i in batch] for batch in batches]
        results: Iterator[np.ndarray]
        if self._pool is None or len(batches) == 1:
            results = map(self._run, inputs)
        else:
            results = self._pool.map(self._run, inputs)
        for batch, vectors in zip(batches, results, strict=True):
            out[batch] = vectors
        return out

    def embed_query(self, text: str) -> np.ndarray:
        """One unit vector for a query."""
        vector: np.ndarray = self._run(
            self.tokenizer.encode_truncated([text]), self._query_session
        )[0]
        return vector

    def _run(
        self, batch: list[list[int]], session: ort.InferenceSession | None = None
    ) -> np.ndarray:
        width = max(len(ids) for ids in batch)
        input_ids = np.full((len(batch), width), self.tokenizer.pad_id, dtype=np.int64)
        attention_mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, ids in enumerate(batch):
            input_ids[row, : len(ids)] = ids
            attention_mask[row, : len(ids)] = 1
        feeds = {
            "input_ids": input_ids,
            "attention_mask": attention_mask,
            "token_type_ids": np.zeros_like(input_ids),
        }
        (vectors,) = (session or self._session).run(
            ["embeddings"], {k: v for k, v in feeds.items() if k in self._inputs}
        )
        # The graph normalises already; this only guards float32 rounding and int8 drift.
        return l2_normalize(vectors)
