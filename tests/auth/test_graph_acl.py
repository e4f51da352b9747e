"""Graph visibility follows provenance: an entity or a fact is seen only through a document the
caller may read, within the knowledge bases its key may use."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import select, text

from app.auth.acl import visible_documents_clause
from app.graph.repository import Visibility
from app.models import Document
from tests.auth.helpers import ADMIN_KEY, bearer, create_key, upload
from tests.graph.corpus import CURIE, SECRET, entity_names, graph_settled, kb_body

SHARED = SECRET + " Ada Lovelace admired Marie Curie."


async def corpus(client: httpx.AsyncClient) -> dict[str, Any]:
    created = await client.post(
        "/v1/knowledge-bases", json=kb_body("graphacl"), headers=bearer(ADMIN_KEY)
    )
    assert created.status_code == 201, created.text
    kb = created.json()["id"]
    public = await upload(client, ADMIN_KEY, kb, CURIE)
    secret = await upload(client, ADMIN_KEY, kb, SHARED, access={"principals": ["group:secret"]})
    await graph_settled(client, kb, headers=bearer(ADMIN_KEY))
    staff = await create_key(client, "default", scopes=["read"], principals=["group:staff"])
    insider = await create_key(client, "default", scopes=["read"], principals=["group:secret"])
    return {
        "kb": kb,
        "public": public["id"],
        "secret": secret["id"],
        "staff": staff["key"],
        "insider": insider["key"],
    }


async def entity(client: httpx.AsyncClient, kb: str, key: str, name: str) -> dict[str, Any]:
    listed = await client.get(
        f"/v1/knowledge-bases/{kb}/graph/entities", params={"q": name}, headers=bearer(key)
    )
    assert listed.status_code == 200, listed.text
    [found] = [item for item in listed.json()["items"] if item["name"] == name]
    return dict(found)


async def test_entities_and_facts_follow_readable_documents(client: httpx.AsyncClient) -> None:
    world = await corpus(client)
    kb, staff, insider = world["kb"], world["staff"], world["insider"]
    staff_sees = await entity_names(client, kb, **bearer(staff))
    insider_sees = await entity_names(client, kb, **bearer(insider))
    assert "Marie Curie" in staff_sees
    assert {"Ada Lovelace", "Project Nightjar", "Geneva"} & staff_sees == set()
    assert {"Ada Lovelace", "Project Nightjar"} <= insider_sees

    # By id too: Ada exists for the insider, not for staff (404 as if it did not exist).
    ada = await entity(client, kb, insider, "Ada Lovelace")
    url = f"/v1/knowledge-bases/{kb}/graph/entities/{ada['id']}"
    assert (await client.get(url, headers=bearer(staff))).status_code == 404
    assert (await client.get(url, headers=bearer(insider))).status_code == 200

    # An entity both documents mention: staff get its mentions, summary and relations from the
    # public document only; the secret sentence never reaches them.
    marie = await entity(client, kb, staff, "Marie Curie")
    detail = (
        await client.get(
            f"/v1/knowledge-bases/{kb}/graph/entities/{marie['id']}", headers=bearer(staff)
        )
    ).json()
    assert {m["document_id"] for m in detail["mentions"]} == {world["public"]}
    assert "Lovelace" not in str(detail)
    insider_detail = (
        await client.get(
            f"/v1/knowledge-bases/{kb}/graph/entities/{marie['id']}", headers=bearer(insider)
        )
    ).json()
    assert world["secret"] in {m["document_id"] for m in insider_detail["mentions"]}
    assert any(r["source_name"] == "Ada Lovelace" for r in insider_detail["relations"])

    relations = await client.get(
        f"/v1/knowledge-bases/{kb}/graph/relations", params={"limit": 200}, headers=bearer(staff)
    )
    assert "Lovelace" not in relations.text
    assert "Nightjar" not in relations.text

    for mode in ("standard", "quick"):
        found = await client.post(
            f"/v1/knowledge-bases/{kb}/graph/search",
            json={"query": "Ada Lovelace Geneva Marie Curie", "mode": mode},
            headers=bearer(staff),
        )
        assert found.status_code == 200, found.text
        # The query's own words come back in `entities` and `actions`; the graph must not.
        shown = str({k: found.json()[k] for k in ("nodes", "edges", "definitions", "facts")})
        shown += found.json()["mermaid"]
        assert "Marie Curie" in shown, mode
        assert "Lovelace" not in shown, mode
        assert "Geneva" not in shown, mode
        insider_found = await client.post(
            f"/v1/knowledge-bases/{kb}/graph/search",
            json={"query": "Ada Lovelace Geneva", "mode": mode},
            headers=bearer(insider),
        )
        assert "Ada Lovelace" in insider_found.json()["definitions"], mode


async def test_a_key_limited_to_another_knowledge_base_sees_no_graph(
    client: httpx.AsyncClient,
) -> None:
    world = await corpus(client)
    other = await client.post(
        "/v1/knowledge-bases", json={"name": "elsewhere"}, headers=bearer(ADMIN_KEY)
    )
    limited = await create_key(
        client, "default", scopes=["read"], knowledge_bases=[other.json()["id"]]
    )
    for path in ("graph/entities", "graph/relations", "graph/status"):
        response = await client.get(
            f"/v1/knowledge-bases/{world['kb']}/{path}", headers=bearer(limited["key"])
        )
        assert response.status_code == 404, path


async def test_the_graph_access_condition_is_the_document_one(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    world = await corpus(client)
    seen = []
    for principals in (None, frozenset(), frozenset({"group:secret"}), frozenset({"group:x"})):
        condition, params = Visibility(uuid.UUID(world["kb"]), principals).clause("d")
        async with app.state.database.transaction() as session:
            by_graph = set(
                await session.scalars(
                    text(f"SELECT d.id FROM documents d WHERE {condition}"), params
                )
            )
            by_acl = set(
                await session.scalars(
                    select(Document.id).where(visible_documents_clause(principals))
                )
            )
        assert by_graph == by_acl, principals
        seen.append(len(by_acl))
    assert seen == [2, 1, 2, 1]
