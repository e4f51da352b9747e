"""Every JSON body the API takes is refused with 415 when it comes as another media type."""

from __future__ import annotations

import uuid

import httpx

from tests.helpers import wait_ready


async def test_every_json_body_refuses_other_media_types(client: httpx.AsyncClient) -> None:
    assert (await client.post("/v1/knowledge-bases", json={"name": "kb"})).status_code == 201
    uploaded = await client.post(
        "/v1/knowledge-bases/kb/documents", params={"wait": "true"}, json={"text": "# A\n\nB."}
    )
    document = await wait_ready(client, f"/v1/knowledge-bases/kb/documents/{uploaded.json()['id']}")
    tree = (await client.get(f"/v1/knowledge-bases/kb/documents/{document['id']}/tree")).json()
    webhook = await client.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/hook"})
    params = {
        "kb": "kb",
        "doc": document["id"],
        "node_id": tree["root"]["node_id"],
        "chunk_id": str(uuid.uuid4()),
        "project": "default",
        "webhook_id": webhook.json()["id"],
        "key_id": str(uuid.uuid4()),
        "job_id": str(uuid.uuid4()),
        "source": "no-such-source",
        "run_id": str(uuid.uuid4()),
        "name": "search_knowledge",
    }
    spec = (await client.get("/openapi.json")).json()
    answers = {}
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" not in content:
                continue
            response = await client.request(
                method,
                path.format(**params),
                content=b'{"looks": "like json"}',
                headers={"content-type": "text/plain"},
            )
            answers[(method, path)] = response.status_code
    assert answers, "no JSON bodies found"
    assert {route: code for route, code in answers.items() if code != 415} == {}
