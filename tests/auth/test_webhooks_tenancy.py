"""Webhooks belong to their project: other projects' admins cannot see or change them, and a
webhook is sent only its own project's events (of every document: an admin made it)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from fastapi import FastAPI

from app.config import Settings
from app.webhooks.dispatcher import WebhookDispatcher
from tests.auth.helpers import (
    PROBLEM,
    as_admin,
    bearer,
    create_key,
    create_project,
    upload,
)
from tests.webhook_receiver import Receiver, deliver, receiving


@pytest.fixture
def settings(settings: Settings) -> Settings:
    # The app's dispatcher looks once at start-up; the test drives the rounds.
    return settings.model_copy(update={"webhook_poll_s": 3600})


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as found:
        yield found


async def make_kb(client: httpx.AsyncClient, key: str) -> str:
    response = await client.post("/v1/knowledge-bases", json={"name": "kb"}, headers=bearer(key))
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def test_another_projects_webhook_is_a_404(
    client: httpx.AsyncClient, receiver: Receiver
) -> None:
    for name in ("alpha", "beta"):
        await create_project(client, name)
    alpha = (await create_key(client, "alpha", scopes=["admin"]))["key"]
    beta = (await create_key(client, "beta", scopes=["admin"]))["key"]
    write = (await create_key(client, "alpha", scopes=["write"]))["key"]
    response = await client.post("/v1/webhooks", json={"url": receiver.url}, headers=bearer(alpha))
    assert response.status_code == 201, response.text
    hook = f"/v1/webhooks/{response.json()['id']}"

    for method, path, body in (
        ("GET", hook, None),
        ("PATCH", hook, {"active": False}),
        ("POST", hook + "/rotate-secret", None),
        ("DELETE", hook, None),
    ):
        refused = await client.request(method, path, json=body, headers=bearer(beta))
        assert refused.status_code == 404, (method, path)
        assert refused.headers["content-type"] == PROBLEM
        assert (
            await client.request(method, path, json=body, headers=bearer(write))
        ).status_code == 403
    assert (await client.get("/v1/webhooks", headers=bearer(beta))).json()["total"] == 0
    # The instance admin acting in alpha sees it; beta's refusals changed nothing.
    seen = (await client.get(hook, headers=as_admin("alpha"))).json()
    assert seen["active"] is True


async def test_a_webhook_gets_only_its_projects_events(
    client: httpx.AsyncClient, app: FastAPI, settings: Settings, receiver: Receiver
) -> None:
    keys = {}
    for name in ("alpha", "beta"):
        await create_project(client, name)
        keys[name] = (await create_key(client, name, scopes=["admin"]))["key"]
    response = await client.post(
        "/v1/webhooks", json={"url": receiver.url}, headers=bearer(keys["alpha"])
    )
    assert response.status_code == 201, response.text
    theirs = await make_kb(client, keys["beta"])
    await upload(client, keys["beta"], theirs, "Beta's document.")
    mine = await make_kb(client, keys["alpha"])
    hidden = await upload(
        client, keys["alpha"], mine, "Only for HR.", access={"principals": ["group:hr"]}
    )

    dispatcher = WebhookDispatcher(app.state.database, settings)
    try:
        await deliver(dispatcher, receiver, 2)
        assert await dispatcher.run_once() == 0
    finally:
        await dispatcher.stop()
    assert receiver.events() == [
        ("knowledge_base.created", mine),
        ("document.ready", hidden["id"]),
    ]
