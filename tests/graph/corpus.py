"""A small corpus with known entities, and helpers to wait for the graph stage."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

CURIE = (
    "# Marie Curie\n\n"
    "Marie Curie worked at the University of Paris with Pierre Curie. "
    "Marie Curie discovered polonium in 1898. "
    "Pierre Curie taught physics at the University of Paris.\n\n"
    "## Prizes\n\n"
    "Marie Curie received the Nobel Prize in Physics. "
    "The Nobel Prize is awarded in Stockholm."
)
OTTERS = (
    "# Sea otters\n\n"
    "Sea otters live in the Pacific Ocean. Sea otters eat sea urchins and crabs. "
    "Kelp forests shelter sea otters from storms."
)
SECRET = (
    "# Project Nightjar\n\n"
    "Project Nightjar is run by Ada Lovelace in Geneva. "
    "Ada Lovelace met Charles Babbage in London."
)


def kb_body(name: str, **overrides: Any) -> dict[str, Any]:
    return {
        "name": name,
        "graph": {"enabled": True},
        "enrichment": {"summaries": True, "keywords": True, "entities": True},
        **overrides,
    }


async def graph_settled(
    client: httpx.AsyncClient,
    kb: str,
    *,
    headers: dict[str, str] | None = None,
    timeout_s: float = 60,
) -> dict[str, Any]:
    """Poll the graph status until no graph job is queued or running."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while True:
        response = await client.get(f"/v1/knowledge-bases/{kb}/graph/status", headers=headers)
        assert response.status_code == 200, response.text
        status: dict[str, Any] = response.json()
        if status["jobs"]["queued"] == 0 and status["jobs"]["running"] == 0:
            return status
        assert loop.time() < deadline, status
        await asyncio.sleep(0.1)


async def entity_names(client: httpx.AsyncClient, kb: str, **headers: str) -> set[str]:
    response = await client.get(
        f"/v1/knowledge-bases/{kb}/graph/entities", params={"limit": 200}, headers=headers
    )
    assert response.status_code == 200, response.text
    return {item["name"] for item in response.json()["items"]}
