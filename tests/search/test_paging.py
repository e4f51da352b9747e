"""Paging: every page of one query ranks the same pool, so pages never repeat or skip hits."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from tests.search.corpus import ChunkSpec, add_document, create_kb, search, texts, unit


async def pages(
    client: httpx.AsyncClient, kb: dict[str, Any], *, top_k: int, **body: Any
) -> list[list[str]]:
    """Consecutive pages until one comes back short."""
    found: list[list[str]] = []
    while True:
        page = texts(await search(client, kb, top_k=top_k, offset=top_k * len(found), **body))
        found.append(page)
        if len(page) < top_k:
            return found


async def test_text_pages_past_the_candidates_neither_repeat_nor_skip(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "paging-text")
    # 30 full-text matches of different strength, and words the trigram fallback would find.
    for i in range(30):
        await add_document(app, kb, [" ".join(["jazz"] * (1 + i % 7) + ["filler"] * i)])
    await add_document(app, kb, ["jazzy tunes", "jazzman blues"])
    whole = texts(await search(client, kb, query="jazz", mode="text", candidates=12, top_k=12))
    assert len(whole) == 12
    paged = await pages(client, kb, query="jazz", mode="text", candidates=12, top_k=5)
    assert [len(page) for page in paged] == [5, 5, 2]
    assert [text for page in paged for text in page] == whole


async def test_hybrid_pages_keep_one_order(client: httpx.AsyncClient, app: FastAPI) -> None:
    kb = await create_kb(client, "paging-hybrid")
    for i in range(25):
        await add_document(app, kb, [f"river {'delta ' * (i % 4)}note {i}"])
    whole = texts(await search(client, kb, query="river delta", candidates=8, top_k=8))
    paged = await pages(client, kb, query="river delta", candidates=8, top_k=3)
    flat = [text for page in paged for text in page]
    assert len(flat) == len(set(flat))
    # The pool is the union of both sides' best 8: the pages walk it in one order, and no
    # fallback joins it on later pages.
    assert flat[:8] == whole
    assert 8 <= len(flat) <= 16


async def test_mmr_pages_come_from_one_pool(client: httpx.AsyncClient, app: FastAPI) -> None:
    kb = await create_kb(client, "paging-mmr")
    for i in range(20):
        vector = unit([1.0, 0.05 * i, 0.02 * (i % 3)])
        await add_document(app, kb, [ChunkSpec(f"note {i}", vector)])
    body: dict[str, Any] = {
        "vector": unit([1.0, 0.0, 0.0]),
        "mode": "vector",
        "mmr": {"lambda": 0.5},
        "rerank_depth": 10,
    }
    whole = texts(await search(client, kb, top_k=10, **body))
    paged = await pages(client, kb, top_k=5, **body)
    assert [len(page) for page in paged] == [5, 5, 0]
    assert [text for page in paged for text in page] == whole


async def test_the_default_candidates_cover_a_page_above_100(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    kb = await create_kb(client, "paging-deep")
    await add_document(app, kb, [f"granite block {i}" for i in range(130)])
    for mode in ("text", "vector", "hybrid"):
        found = await search(client, kb, query="granite", mode=mode, top_k=120)
        assert len(found["hits"]) == 120, mode
    # Asked for, the candidate depth is kept: each side gives its best 5.
    few = await search(client, kb, query="granite", mode="text", candidates=5, top_k=120)
    assert len(few["hits"]) == 5
