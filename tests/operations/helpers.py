"""Helpers for operations tests: knowledge bases with documents, metrics parsed."""

from __future__ import annotations

from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families


async def knowledge_base(client: httpx.AsyncClient, name: str, docs: dict[str, str]) -> str:
    """A knowledge base holding `docs` (external id -> text), every one ready; its id."""
    created = await client.post("/v1/knowledge-bases", json={"name": name})
    assert created.status_code == 201, created.text
    kb = str(created.json()["id"])
    for external_id, text in docs.items():
        response = await client.post(
            f"/v1/knowledge-bases/{kb}/documents",
            params={"wait": "true"},
            json={"text": text, "external_id": external_id, "title": external_id},
        )
        assert response.status_code in (200, 202), response.text
        assert response.json()["status"] == "ready", response.json()
    return kb


def samples(exposition: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus exposition, by name and sorted labels."""
    found: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(exposition):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(
    found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: Any
) -> float:
    return found.get((name, tuple(sorted((k, str(v)) for k, v in labels.items()))), 0.0)
