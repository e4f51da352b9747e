"""Test data for search: knowledge bases through the API, documents and chunks through SQL."""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import numpy as np
from fastapi import FastAPI
from sqlalchemy import text

from app.models import KnowledgeBase

DIMS = 384


class KeywordEmbedder:
    """Unit vectors from the sum of per-word random vectors: shared words, similar vectors."""

    def __init__(self, dimensions: int = DIMS) -> None:
        self.dimensions = dimensions
        self.queries: list[str] = []

    def word(self, word: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(word.encode()).digest()[:8], "little")
        return np.random.default_rng(seed).standard_normal(self.dimensions).astype(np.float32)

    def vector(self, text: str) -> np.ndarray:
        words = re.findall(r"\w+", text.lower()) or ["<empty>"]
        total = np.sum([self.word(w) for w in words], axis=0)
        return (total / np.linalg.norm(total)).astype(np.float32)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self.vector(t) for t in texts]) if texts else np.zeros((0, DIMS))

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self.vector(text)


class KeywordEmbedders:
    """Embedder factory for the app: one KeywordEmbedder per dimension, None for 'none'."""

    def __init__(self) -> None:
        self.by_dimensions: dict[int, KeywordEmbedder] = {}

    def __call__(self, kb: KnowledgeBase) -> KeywordEmbedder | None:
        if kb.embedding_provider == "none":
            return None
        return self.by_dimensions.setdefault(
            kb.embedding_dimensions, KeywordEmbedder(kb.embedding_dimensions)
        )


def unit(values: Sequence[float], dims: int = DIMS) -> list[float]:
    """A unit vector with the given leading components (the rest zero)."""
    vector = np.zeros(dims, dtype=np.float64)
    vector[: len(values)] = values
    return [float(x) for x in vector / np.linalg.norm(vector)]


async def create_kb(client: httpx.AsyncClient, name: str, **body: Any) -> dict[str, Any]:
    response = await client.post("/v1/knowledge-bases", json={"name": name, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


@dataclass
class ChunkSpec:
    text: str
    vector: Sequence[float] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    node_path: list[str] = field(default_factory=list)
    section_titles: list[str] = field(default_factory=list)
    page_start: int | None = None
    page_end: int | None = None
    start_offset: int | None = None
    end_offset: int | None = None


def vector_literal(vector: Sequence[float] | None) -> str | None:
    return None if vector is None else "[" + ",".join(repr(float(x)) for x in vector) + "]"


async def add_document(
    app: FastAPI,
    kb: dict[str, Any],
    chunks: Sequence[ChunkSpec | str],
    *,
    title: str = "",
    status: str = "ready",
    metadata: dict[str, Any] | None = None,
    tree: dict[str, Any] | None = None,
    embed: bool = True,
    **columns: Any,
) -> tuple[uuid.UUID, list[uuid.UUID]]:
    """Insert a document and its chunks; chunks without a vector get the keyword embedding."""
    embedder = KeywordEmbedder(kb["embedding"]["dimensions"])
    doc_id = uuid.uuid4()
    chunk_ids: list[uuid.UUID] = []
    async with app.state.database.transaction() as session:
        project_id = await session.scalar(
            text("SELECT project_id FROM knowledge_bases WHERE id = :id"), {"id": kb["id"]}
        )
        await session.execute(
            text(
                "INSERT INTO documents (id, project_id, knowledge_base_id, title, status, "
                "metadata, tree, external_id, source_uri, filename, format) VALUES (:id, "
                ":project, :kb, :title, :status, CAST(:metadata AS jsonb), CAST(:tree AS jsonb), "
                ":external_id, :source_uri, :filename, :format)"
            ),
            {
                "id": doc_id,
                "project": project_id,
                "kb": uuid.UUID(kb["id"]),
                "title": title,
                "status": status,
                "metadata": json.dumps(metadata or {}),
                "tree": None if tree is None else json.dumps(tree),
                "external_id": columns.get("external_id"),
                "source_uri": columns.get("source_uri"),
                "filename": columns.get("filename"),
                "format": columns.get("format"),
            },
        )
        for index, spec in enumerate(chunks):
            chunk = ChunkSpec(spec) if isinstance(spec, str) else spec
            vector = chunk.vector
            if vector is None and embed:
                vector = [float(x) for x in embedder.vector(chunk.text)]
            chunk_id = uuid.uuid4()
            chunk_ids.append(chunk_id)
            await session.execute(
                text(
                    "INSERT INTO chunks (id, project_id, knowledge_base_id, document_id, "
                    "chunk_index, text, text_sha256, node_path, section_titles, doc_title, "
                    "page_start, page_end, start_offset, end_offset, metadata, own_metadata, "
                    "embedding, ts_config, leaf_node_id, depth) VALUES (:id, :project, :kb, "
                    ":doc, :index, :text, :sha, :node_path, :sections, :title, :page_start, "
                    ":page_end, :start, :end, CAST(:metadata AS jsonb), :own, "
                    "CAST(:embedding AS vector), CAST(:lang AS regconfig), :leaf, :depth)"
                ),
                {
                    "id": chunk_id,
                    "project": project_id,
                    "kb": uuid.UUID(kb["id"]),
                    "doc": doc_id,
                    "index": index,
                    "text": chunk.text,
                    "sha": hashlib.sha256(chunk.text.encode()).hexdigest(),
                    "node_path": chunk.node_path,
                    "sections": chunk.section_titles,
                    "title": title,
                    "page_start": chunk.page_start,
                    "page_end": chunk.page_end,
                    "start": chunk.start_offset,
                    "end": chunk.end_offset,
                    "metadata": json.dumps(chunk.metadata),
                    # As the chunk API records it: metadata given is the chunk's own.
                    "own": bool(chunk.metadata),
                    "embedding": vector_literal(vector),
                    "lang": kb["text_search_language"],
                    "leaf": chunk.node_path[-1] if chunk.node_path else None,
                    "depth": max(len(chunk.node_path) - 1, 0),
                },
            )
    return doc_id, chunk_ids


async def search(
    client: httpx.AsyncClient, kb: dict[str, Any] | str, expect: int = 200, **body: Any
) -> dict[str, Any]:
    ref = kb if isinstance(kb, str) else kb["id"]
    response = await client.post(f"/v1/knowledge-bases/{ref}/search", json=body)
    assert response.status_code == expect, response.text
    found: dict[str, Any] = response.json()
    return found


def titles(found: dict[str, Any]) -> list[str]:
    return [hit["doc_title"] for hit in found["hits"]]


def texts(found: dict[str, Any]) -> list[str]:
    return [hit["text"] for hit in found["hits"]]
