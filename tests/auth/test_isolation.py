"""Two projects with near-identical content: nothing of beta ever reaches a key of alpha.

Same knowledge-base names, same document texts, external ids and metadata, in both projects.
Alpha's keys then list, get, page, filter and search every way the API allows, including by
beta's ids, beta's cursors and beta's project name; no id of beta may appear in any answer.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import httpx
from fastapi import FastAPI

from tests.auth.helpers import bearer, create_key, create_project, upload

TEXTS = [
    "# Handbook {p}\n\nOtters hold hands while sleeping.\n\n## Travel\n\nTrains leave at nine.",
    "# Salaries {p}\n\nThe salary bands are reviewed every spring.",
    "# Secrets {p}\n\nThe launch code is kept in the vault next to the otters.",
]
QUERIES = ["otters", "salary bands", "launch code vault", "spring review"]
FILTERS: list[dict[str, Any]] = [
    {},
    {"metadata.team": "ops"},
    {"metadata.team": {"$ne": "ops"}},
    {"external_id": {"$in": ["handbook", "salaries", "secrets"]}},
    {"doc_title": {"$contains": "beta"}},
    {"$or": [{"metadata.rank": {"$gte": 0}}, {"format": "markdown"}]},
    {"$not": {"metadata.team": {"$exists": True}}},
]


@dataclass
class Tenant:
    name: str
    project_id: str = ""
    admin: str = ""
    read: str = ""
    write: str = ""
    kb_ids: list[str] = field(default_factory=list)
    doc_ids: list[str] = field(default_factory=list)
    chunk_ids: list[str] = field(default_factory=list)
    job_ids: list[str] = field(default_factory=list)

    def ids(self) -> set[str]:
        return {
            self.project_id,
            *self.kb_ids,
            *self.doc_ids,
            *self.chunk_ids,
            *self.job_ids,
        }


async def populate(client: httpx.AsyncClient, name: str) -> Tenant:
    tenant = Tenant(name)
    tenant.project_id = (await create_project(client, name))["id"]
    tenant.admin = (await create_key(client, name, scopes=["admin"]))["key"]
    tenant.read = (await create_key(client, name, scopes=["read"]))["key"]
    tenant.write = (await create_key(client, name, scopes=["write"]))["key"]
    for kb_name in ("handbook", "archive"):
        response = await client.post(
            "/v1/knowledge-bases", json={"name": kb_name}, headers=bearer(tenant.write)
        )
        assert response.status_code == 201, response.text
        kb = response.json()["id"]
        tenant.kb_ids.append(kb)
        for rank, (external_id, text) in enumerate(
            zip(("handbook", "salaries", "secrets"), TEXTS, strict=True)
        ):
            document = await upload(
                client,
                tenant.write,
                kb,
                text.format(p=name),
                external_id=external_id,
                metadata={"team": "ops" if rank % 2 else "hr", "rank": rank},
            )
            tenant.doc_ids.append(document["id"])
        chunks = await client.get(
            f"/v1/knowledge-bases/{kb}/chunks", params={"limit": 200}, headers=bearer(tenant.read)
        )
        tenant.chunk_ids += [c["chunk_id"] for c in chunks.json()["items"]]
        job = await client.post(
            f"/v1/knowledge-bases/{kb}/chunks/embed", headers=bearer(tenant.write)
        )
        assert job.status_code == 202, job.text
        tenant.job_ids.append(job.json()["job"]["id"])
    return tenant


class Probe:
    """Sends requests as one key and keeps every answer for the final check."""

    def __init__(self, client: httpx.AsyncClient, key: str) -> None:
        self.client = client
        self.key = key
        # (the request as sent, status, the answer's body)
        self.answers: list[tuple[str, int, str]] = []

    async def __call__(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        headers = bearer(self.key) | kwargs.pop("headers", {})
        response = await self.client.request(method, url, headers=headers, **kwargs)
        sent = f"{method} {response.request.url} {response.request.content.decode()} {headers}"
        self.answers.append((sent, response.status_code, response.text))
        assert response.status_code != 500, (method, url, response.text)
        return response


async def test_no_id_of_another_project_ever_appears(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    alpha = await populate(client, "alpha")
    beta = await populate(client, "beta")
    assert alpha.ids().isdisjoint(beta.ids())
    beta_cursor = (
        await client.get("/v1/knowledge-bases", params={"limit": 1}, headers=bearer(beta.read))
    ).json()["next_cursor"]
    assert beta_cursor is not None

    for key in (alpha.read, alpha.write, alpha.admin):
        probe = Probe(client, key)
        # Every query, filter and mode with the read key; a sample with the others.
        queries = QUERIES if key == alpha.read else QUERIES[:1]
        # Listings, with pagination, and beta's cursor replayed.
        for limit in (1, 2, 200):
            await probe("GET", "/v1/knowledge-bases", params={"limit": limit})
        listed = await probe("GET", "/v1/knowledge-bases", params={"cursor": beta_cursor})
        assert {kb["id"] for kb in listed.json()["items"]} <= set(alpha.kb_ids)
        # Beta's knowledge bases, by id: as missing as a made-up one.
        for kb in beta.kb_ids:
            for suffix in ("", "/documents", "/chunks", "/chunks/count"):
                assert (await probe("GET", f"/v1/knowledge-bases/{kb}{suffix}")).status_code == 404
            response = await probe(
                "POST", f"/v1/knowledge-bases/{kb}/search", json={"query": "otters"}
            )
            assert response.status_code == 404
            response = await probe(
                "POST", "/v1/search", json={"query": "otters", "knowledge_bases": [kb]}
            )
            assert response.status_code == 404
        # Alpha's knowledge bases, addressed with beta's document, chunk and job ids.
        for kb in alpha.kb_ids:
            for doc in beta.doc_ids:
                for suffix in ("", "/tree", "/chunks"):
                    response = await probe(
                        "GET", f"/v1/knowledge-bases/{kb}/documents/{doc}{suffix}"
                    )
                    assert response.status_code == 404
            for chunk in beta.chunk_ids[:5]:
                response = await probe("GET", f"/v1/knowledge-bases/{kb}/chunks/{chunk}")
                assert response.status_code == 404
            for job in beta.job_ids:
                assert (
                    await probe("GET", f"/v1/knowledge-bases/{kb}/jobs/{job}")
                ).status_code == 404
            for doc in beta.doc_ids[:2]:
                response = await probe(
                    "GET", f"/v1/knowledge-bases/{kb}/chunks", params={"doc_id": doc}
                )
                assert response.json()["items"] == []
            # The same names in both projects resolve to alpha's.
            for ref in ("handbook", "salaries", "secrets"):
                await probe("GET", f"/v1/knowledge-bases/{kb}/documents/{ref}")
            for limit, status in itertools.product((1, 3), ("ready", None)):
                params: dict[str, Any] = {"limit": limit} | ({"status": status} if status else {})
                await probe("GET", f"/v1/knowledge-bases/{kb}/documents", params=params)
            await probe(
                "GET", f"/v1/knowledge-bases/{kb}/documents", params={"metadata": '{"team":"ops"}'}
            )
            await probe("GET", f"/v1/knowledge-bases/{kb}/chunks", params={"limit": 200})
            # Searches, every mode, with filters, including filters naming beta's ids.
            for query, condition, mode in itertools.product(
                queries, FILTERS, ("hybrid", "text", "vector")
            ):
                body = {"query": query, "filter": condition, "mode": mode, "top_k": 20}
                response = await probe("POST", f"/v1/knowledge-bases/{kb}/search", json=body)
                assert response.status_code == 200, response.text
            for condition in (
                {"doc_id": {"$in": beta.doc_ids}},
                {"chunk_id": {"$in": beta.chunk_ids[:50]}},
                {"$not": {"doc_id": {"$in": alpha.doc_ids}}},
            ):
                response = await probe(
                    "POST",
                    f"/v1/knowledge-bases/{kb}/search",
                    json={"query": "otters", "filter": condition, "top_k": 50},
                )
                assert response.json()["hits"] == []
        # Search across knowledge bases by name: the names exist in both projects.
        response = await probe(
            "POST",
            "/v1/search",
            json={"query": "otters", "knowledge_bases": ["handbook", "archive"], "top_k": 50},
        )
        hits = response.json()["hits"]
        assert hits
        assert {hit["knowledge_base_id"] for hit in hits} <= set(alpha.kb_ids)
        # Naming beta's project in the header: the same 404 as a project that does not exist.
        for header in ("beta", beta.project_id, "nope"):
            response = await probe(
                "GET", "/v1/knowledge-bases", headers={"X-Arbor-Project": header}
            )
            assert response.status_code == 404
        # An id the caller sent may be echoed back (404 details); any other is a leak.
        leaked = [
            (sent, status)
            for sent, status, text in probe.answers
            if any(beta_id in text and beta_id not in sent for beta_id in beta.ids())
        ]
        assert leaked == []
        assert len(probe.answers) > (250 if key == alpha.read else 100)

    # Alpha's admin manages alpha only.
    probe = Probe(client, alpha.admin)
    for path in (
        "/v1/projects/beta",
        "/v1/projects/beta/api-keys",
        f"/v1/projects/{beta.project_id}",
    ):
        assert (await probe("GET", path)).status_code == 404
    projects = (await probe("GET", "/v1/projects")).json()
    assert [p["name"] for p in projects["items"]] == ["alpha"]
    events = (await probe("GET", "/v1/audit", params={"limit": 200})).json()["items"]
    assert events
    # Alpha's own failed attempts at beta's paths are in alpha's log; beta's work is not.
    of_beta = [e for e in events if e["status"] < 400 and any(b in e["path"] for b in beta.ids())]
    assert of_beta == []


async def test_a_chunk_id_of_another_project_is_never_overwritten(
    client: httpx.AsyncClient,
) -> None:
    keys = {}
    for name in ("alpha", "beta"):
        await create_project(client, name)
        keys[name] = (await create_key(client, name, scopes=["write"]))["key"]
        response = await client.post(
            "/v1/knowledge-bases",
            json={"name": "kb", "embedding": {"provider": "none", "dimensions": 4}},
            headers=bearer(keys[name]),
        )
        assert response.status_code == 201
    chunk = "6b1f3c56-0d0e-4c43-9a52-1c1f4bd0e001"
    url = f"/v1/knowledge-bases/kb/chunks/{chunk}"
    mine = await client.put(
        url, json={"doc_id": "d", "text": "alpha's"}, headers=bearer(keys["alpha"])
    )
    assert mine.status_code == 201
    theirs = await client.put(
        url, json={"doc_id": "d", "text": "beta's"}, headers=bearer(keys["beta"])
    )
    # Beta's own chunk under the same id: ids are unique within a knowledge base.
    assert theirs.status_code == 201, theirs.text
    bulk = await client.post(
        "/v1/knowledge-bases/kb/chunks/bulk",
        json={"chunks": [{"chunk_id": chunk, "doc_id": "d", "text": "beta's, again"}]},
        headers=bearer(keys["beta"]),
    )
    assert bulk.status_code == 200, bulk.text
    kept = await client.get(url, headers=bearer(keys["alpha"]))
    assert kept.json()["text"] == "alpha's"
    assert (await client.get(url, headers=bearer(keys["beta"]))).json()["text"] == "beta's, again"
