"""The synthetic graph fixture (tests/graph/synthetic.py) the retrieval tests write into."""

from __future__ import annotations

import uuid

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from tests.graph.synthetic import Graph


@pytest.fixture
async def graph(client: httpx.AsyncClient, app: FastAPI) -> Graph:
    kb = (await client.post("/v1/knowledge-bases", json={"name": "synthetic"})).json()
    doc = (
        await client.post(
            "/v1/knowledge-bases/synthetic/documents",
            params={"wait": "true"},
            json={"text": "# Synthetic\n\nA document the synthetic graph is attached to."},
        )
    ).json()
    chunks = (
        await client.get(f"/v1/knowledge-bases/synthetic/documents/{doc['id']}/chunks")
    ).json()
    async with app.state.database.transaction() as session:
        project = await session.scalar(
            text("SELECT project_id FROM knowledge_bases WHERE id = :k"),
            {"k": uuid.UUID(kb["id"])},
        )
    return Graph(
        app,
        uuid.UUID(kb["id"]),
        project,
        uuid.UUID(doc["id"]),
        uuid.UUID(chunks["items"][0]["chunk_id"]),
    )
