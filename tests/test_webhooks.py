"""Webhooks: the event feed pushed to a URL, signed, in order, retried, and kept off private
addresses outside development. The dispatcher is driven round by round (`run_once`)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import SecretStr
from sqlalchemy import text

from app.config import Settings
from app.main import create_app
from app.webhooks.destinations import destination_problem
from app.webhooks.dispatcher import WebhookDispatcher, retry_delay_s
from tests.auth.helpers import ADMIN_KEY, as_admin
from tests.fakes import FakeEmbedders
from tests.webhook_receiver import Receiver, deliver, receiving

HOOKS = "/v1/webhooks"
DOCS = "/v1/knowledge-bases/{kb}/documents"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    # The app's own dispatcher looks once at start-up (nothing is due yet) and then not for an
    # hour: the tests run rounds themselves.
    return settings.model_copy(update={"webhook_poll_s": 3600})


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiving() as found:
        yield found


@pytest.fixture
async def dispatcher(app: FastAPI, settings: Settings) -> AsyncIterator[WebhookDispatcher]:
    found = WebhookDispatcher(app.state.database, settings)
    yield found
    await found.stop()


async def make_kb(client: httpx.AsyncClient, name: str) -> str:
    response = await client.post("/v1/knowledge-bases", json={"name": name})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def upload(client: httpx.AsyncClient, kb: str, text_: str) -> str:
    response = await client.post(DOCS.format(kb=kb), params={"wait": "true"}, json={"text": text_})
    assert response.json()["status"] == "ready", response.text
    return str(response.json()["id"])


async def create(client: httpx.AsyncClient, url: str, **body: Any) -> dict[str, Any]:
    response = await client.post(HOOKS, json={"url": url, **body})
    assert response.status_code == 201, response.text
    return dict(response.json())


async def state(client: httpx.AsyncClient, webhook: dict[str, Any]) -> dict[str, Any]:
    response = await client.get(f"{HOOKS}/{webhook['id']}")
    assert response.status_code == 200, response.text
    return dict(response.json())


async def make_due(app: FastAPI) -> None:
    async with app.state.database.transaction() as session:
        await session.execute(text("UPDATE webhooks SET next_attempt_at = now()"))


def signed(secret: str, received: Any) -> str:
    """The Standard Webhooks signature, computed here from the spec, not by the app."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    headers = received.headers
    message = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + received.body
    return "v1," + base64.b64encode(hmac.new(key, message, hashlib.sha256).digest()).decode()


async def test_crud_and_the_secret_is_shown_only_at_creation_and_rotation(
    client: httpx.AsyncClient,
) -> None:
    kb = await make_kb(client, "kb")
    response = await client.post(
        HOOKS,
        json={
            "url": "https://example.com/hook",
            "types": ["document.ready", "document.ready"],
            "knowledge_base_id": kb,
            "description": "ready documents",
        },
    )
    assert response.status_code == 201, response.text
    created = response.json()
    assert response.headers["location"] == f"{HOOKS}/{created['id']}"
    assert created["secret"].startswith("whsec_")
    assert len(base64.b64decode(created["secret"].removeprefix("whsec_"))) == 32
    assert (created["types"], created["knowledge_base_id"]) == (["document.ready"], kb)
    assert (created["active"], created["attempts"], created["last_event_id"]) == (True, 0, None)

    fetched = await state(client, created)
    assert "secret" not in fetched
    assert fetched == {k: v for k, v in created.items() if k != "secret"}
    listed = (await client.get(HOOKS)).json()
    assert (listed["total"], [item["id"] for item in listed["items"]]) == (1, [created["id"]])
    assert "secret" not in listed["items"][0]

    response = await client.patch(
        f"{HOOKS}/{created['id']}", json={"types": None, "active": False, "description": "all"}
    )
    assert response.status_code == 200, response.text
    changed = response.json()
    assert (changed["types"], changed["active"], changed["description"]) == (None, False, "all")
    assert changed["url"] == "https://example.com/hook"
    assert (await client.patch(f"{HOOKS}/{created['id']}", json={})).json()["types"] is None

    rotated = (await client.post(f"{HOOKS}/{created['id']}/rotate-secret")).json()
    assert rotated["secret"].startswith("whsec_")
    assert rotated["secret"] != created["secret"]
    assert "secret" not in await state(client, created)

    assert (await client.delete(f"{HOOKS}/{created['id']}")).status_code == 204
    gone = await client.get(f"{HOOKS}/{created['id']}")
    assert gone.status_code == 404
    assert gone.json()["type"] == "https://arbor.dev/problems/not-found"
    assert (await client.delete(f"{HOOKS}/{created['id']}")).status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"url": "ftp://example.com/hook"},
        {"url": "https://user:pass@example.com/hook"},
        {"url": "https://example.com:99999/hook"},
        {"url": "https:///hook"},
        {"url": "https://example.com/" + "a" * 2000},
        {"url": "https://example.com/hook", "types": []},
        {"url": "https://example.com/hook", "types": ["document.eaten"]},
        {"url": "https://example.com/hook", "knowledge_base_id": str(uuid.uuid4())},
    ],
)
async def test_invalid_webhooks_are_422(client: httpx.AsyncClient, body: dict[str, Any]) -> None:
    response = await client.post(HOOKS, json=body)
    assert response.status_code == 422, response.text
    assert response.json()["type"] == "https://arbor.dev/problems/validation-error"
    assert (await client.get(HOOKS)).json()["total"] == 0


async def test_events_are_delivered_signed_one_per_request_in_feed_order(
    client: httpx.AsyncClient,
    app: FastAPI,
    receiver: Receiver,
    dispatcher: WebhookDispatcher,
) -> None:
    kb = await make_kb(client, "kb")
    webhook = await create(client, receiver.url + "/hooks/arbor")
    first = await upload(client, kb, "The first document.")
    second = await upload(client, kb, "The second document.")
    assert (await client.delete(f"{DOCS.format(kb=kb)}/{first}")).status_code == 204

    await deliver(dispatcher, receiver, 3)
    assert receiver.events() == [
        ("document.ready", first),
        ("document.ready", second),
        ("document.deleted", first),
    ]
    feed = await client.get("/v1/events", params={"type": ["document.ready", "document.deleted"]})
    assert [r.event for r in receiver.received] == feed.json()["items"]
    now = int(time.time())
    for received in receiver.received:
        headers = received.headers
        assert received.path == "/hooks/arbor"
        assert headers["webhook-id"] == str(received.event["id"])
        assert abs(int(headers["webhook-timestamp"]) - now) < 60
        assert headers["webhook-signature"] == signed(webhook["secret"], received)
        assert headers["content-type"] == "application/json"
        assert headers["user-agent"].startswith("Arbor-Webhooks/")

    after = await state(client, webhook)
    assert after["last_event_id"] == receiver.received[-1].event["id"]
    assert (after["attempts"], after["last_status"], after["last_error"]) == (0, 200, None)
    assert after["delivered_at"] is not None
    # The cursor is a feed cursor: nothing is left after it.
    rest = await client.get("/v1/events", params={"after": after["cursor"]})
    assert rest.json()["items"] == []
    assert await dispatcher.run_once() == 0
    assert len(receiver.received) == 3


async def test_types_and_knowledge_base_filters(
    client: httpx.AsyncClient, receiver: Receiver, dispatcher: WebhookDispatcher
) -> None:
    one, two = await make_kb(client, "one"), await make_kb(client, "two")
    deletions = await create(client, receiver.url + "/deleted", types=["document.deleted"])
    only_two = await create(client, receiver.url + "/two", knowledge_base_id=two)
    in_one = await upload(client, one, "In the first knowledge base.")
    in_two = await upload(client, two, "In the second knowledge base.")
    assert (await client.delete(f"{DOCS.format(kb=one)}/{in_one}")).status_code == 204

    await deliver(dispatcher, receiver, 2)
    by_path = {r.path: (r.event["type"], r.event["subject_id"]) for r in receiver.received}
    assert by_path == {"/deleted": ("document.deleted", in_one), "/two": ("document.ready", in_two)}
    # Past the events its filters skip too, so they are not read again each round.
    for webhook in (deletions, only_two):
        cursor = (await state(client, webhook))["cursor"]
        assert (await client.get("/v1/events", params={"after": cursor})).json()["items"] == []
    assert await dispatcher.run_once() == 0


async def test_a_failed_delivery_is_retried_later_without_skipping_or_reordering(
    client: httpx.AsyncClient,
    app: FastAPI,
    receiver: Receiver,
    dispatcher: WebhookDispatcher,
    settings: Settings,
) -> None:
    kb = await make_kb(client, "kb")
    webhook = await create(client, receiver.url)
    first = await upload(client, kb, "The first document.")
    second = await upload(client, kb, "The second document.")
    receiver.answers = [(500, {})]

    await deliver(dispatcher, receiver, 1)
    failing = await state(client, webhook)
    assert (failing["attempts"], failing["last_status"]) == (1, 500)
    assert failing["last_error"].startswith("HTTP 500")
    assert failing["active"] is True
    assert failing["failing_since"] is not None
    assert failing["last_event_id"] is None
    wait = datetime.fromisoformat(failing["next_attempt_at"]) - datetime.now(UTC)
    assert retry_delay_s(1, settings) == 20
    assert timedelta(seconds=10) < wait <= timedelta(seconds=20)
    assert await dispatcher.run_once() == 0  # not due yet

    await make_due(app)
    await deliver(dispatcher, receiver, 3)
    assert receiver.events() == [
        ("document.ready", first),
        ("document.ready", first),
        ("document.ready", second),
    ]
    ids = [r.headers["webhook-id"] for r in receiver.received]
    assert ids[0] == ids[1] != ids[2]  # the retry is the same message
    healed = await state(client, webhook)
    assert (healed["attempts"], healed["last_status"], healed["last_error"]) == (0, 200, None)
    assert healed["failing_since"] is None


def test_the_retry_wait_doubles_up_to_the_cap(settings: Settings) -> None:
    assert [retry_delay_s(n, settings) for n in (1, 2, 3, 8, 9, 500)] == [
        20,
        40,
        80,
        2560,
        3600,
        3600,
    ]


async def test_redirects_are_not_followed(
    client: httpx.AsyncClient, receiver: Receiver, dispatcher: WebhookDispatcher
) -> None:
    kb = await make_kb(client, "kb")
    webhook = await create(client, receiver.url + "/old")
    await upload(client, kb, "A document.")
    receiver.answers = [(307, {"location": receiver.url + "/new"})]

    await deliver(dispatcher, receiver, 1)
    await asyncio.sleep(0.2)
    assert [r.path for r in receiver.received] == ["/old"]
    after = await state(client, webhook)
    assert (after["attempts"], after["last_status"], after["last_event_id"]) == (1, 307, None)
    assert "redirects are not followed" in after["last_error"]


async def test_a_receiver_slower_than_the_timeout_is_a_failure(
    client: httpx.AsyncClient, app: FastAPI, receiver: Receiver, settings: Settings
) -> None:
    kb = await make_kb(client, "kb")
    webhook = await create(client, receiver.url)
    await upload(client, kb, "A document.")
    receiver.delay_s = 1.0
    impatient = WebhookDispatcher(
        app.state.database, settings.model_copy(update={"webhook_timeout_s": 0.3})
    )
    try:
        started = time.monotonic()
        await deliver(impatient, receiver, 1)
        assert time.monotonic() - started < 0.9
    finally:
        await impatient.stop()
    after = await state(client, webhook)
    assert (after["attempts"], after["last_status"], after["last_event_id"]) == (1, None, None)
    assert after["last_error"] == "no answer within 0.3 s"


async def test_a_webhook_failing_for_the_whole_window_is_turned_off_and_can_resume(
    client: httpx.AsyncClient,
    app: FastAPI,
    receiver: Receiver,
    dispatcher: WebhookDispatcher,
) -> None:
    kb = await make_kb(client, "kb")
    webhook = await create(client, receiver.url)
    document = await upload(client, kb, "A document.")
    async with app.state.database.transaction() as session:
        await session.execute(
            text("UPDATE webhooks SET failing_since = now() - interval '71 hours', attempts = 9")
        )
    receiver.answers = [(503, {}), (503, {})]
    await deliver(dispatcher, receiver, 1)
    assert (await state(client, webhook))["active"] is True  # 71 h < 72 h

    async with app.state.database.transaction() as session:
        await session.execute(
            text("UPDATE webhooks SET failing_since = now() - interval '73 hours'")
        )
    await make_due(app)
    await deliver(dispatcher, receiver, 2)
    off = await state(client, webhook)
    assert (off["active"], off["attempts"], off["last_status"]) == (False, 11, 503)
    await make_due(app)
    assert await dispatcher.run_once() == 0

    response = await client.patch(f"{HOOKS}/{webhook['id']}", json={"active": True})
    resumed = response.json()
    assert (resumed["active"], resumed["attempts"], resumed["failing_since"]) == (True, 0, None)
    await deliver(dispatcher, receiver, 3)
    assert receiver.events() == [("document.ready", document)] * 3
    assert (await state(client, webhook))["last_status"] == 200


async def test_a_delivery_under_way_keeps_its_webhook_when_a_patch_makes_it_due(
    client: httpx.AsyncClient, app: FastAPI, receiver: Receiver, settings: Settings
) -> None:
    kb = await make_kb(client, "kb")
    webhook = await create(client, receiver.url)
    await upload(client, kb, "A document.")
    first, second = (WebhookDispatcher(app.state.database, settings) for _ in range(2))
    try:
        for _ in range(200):  # until the upload's event settles
            claimed = await first.claim(1)
            if claimed:
                break
            await asyncio.sleep(0.05)
        assert [found.id for found in claimed] == [uuid.UUID(webhook["id"])]
        response = await client.patch(f"{HOOKS}/{webhook['id']}", json={"active": True})
        assert response.status_code == 200
        assert await second.claim(1) == []  # still the first one's to send
        await first.deliver(claimed[0])
        assert len(receiver.received) == 1
    finally:
        await first.stop()
        await second.stop()


async def test_a_new_webhook_does_not_replay_older_events(
    client: httpx.AsyncClient, receiver: Receiver, dispatcher: WebhookDispatcher
) -> None:
    kb = await make_kb(client, "kb")
    await upload(client, kb, "Before the webhook.")
    await create(client, receiver.url)
    assert await dispatcher.run_once() == 0
    later = await upload(client, kb, "After the webhook.")
    await deliver(dispatcher, receiver, 1)
    assert receiver.events() == [("document.ready", later)]


async def test_the_app_delivers_in_the_background(database_url: str, receiver: Receiver) -> None:
    settings = Settings(env="test", database_url=database_url, webhook_poll_s=0.05)
    app = create_app(settings, embedder_factory=FakeEmbedders())
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client,
    ):
        await create(client, receiver.url)
        kb = await make_kb(client, "kb")
        await receiver.wait_for(1, timeout_s=10)
        assert receiver.events() == [("knowledge_base.created", kb)]


@pytest.fixture
async def production(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    settings = Settings(
        env="production",
        database_url=database_url,
        admin_key=SecretStr(ADMIN_KEY),
        rate_limit_per_minute=0,
        workers=0,
    )
    app = create_app(settings, embedder_factory=FakeEmbedders())
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://t", headers=as_admin()
        ) as client,
    ):
        yield client


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://10.1.2.3/hook",
        "http://192.168.0.10/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://100.64.0.1/hook",
        "http://0.0.0.0/hook",
        "http://224.0.0.1/hook",
    ],
)
async def test_production_refuses_private_destinations(
    production: httpx.AsyncClient, url: str
) -> None:
    response = await production.post(HOOKS, json={"url": url})
    assert response.status_code == 422, response.text
    assert response.json()["type"] == "https://arbor.dev/problems/validation-error"
    assert "non-public" in response.json()["detail"]
    assert (await production.get(HOOKS)).json()["total"] == 0


async def test_production_allows_public_addresses_and_the_opt_in(database_url: str) -> None:
    strict = Settings(env="production", database_url=database_url)
    assert await destination_problem("https://93.184.215.14/hook", strict) is None
    assert await destination_problem("http://127.0.0.1/hook", strict) is not None
    opted_in = strict.model_copy(update={"webhook_allow_private": True})
    assert await destination_problem("http://127.0.0.1/hook", opted_in) is None
    development = strict.model_copy(update={"env": "development"})
    assert await destination_problem("http://localhost/hook", development) is None


async def test_a_host_resolving_to_loopback_is_refused_at_delivery_in_production(
    client: httpx.AsyncClient,
    app: FastAPI,
    receiver: Receiver,
    dispatcher: WebhookDispatcher,
    settings: Settings,
) -> None:
    # Accepted when created (test settings allow loopback); production refuses to send.
    port = receiver.url.rsplit(":", 1)[1]
    webhook = await create(client, f"http://localhost:{port}/hook")
    await make_kb(client, "kb")
    strict = WebhookDispatcher(
        app.state.database, settings.model_copy(update={"env": "production"})
    )
    try:
        assert await strict.run_once() == 1
    finally:
        await strict.stop()
    refused = await state(client, webhook)
    assert receiver.received == []
    assert (refused["attempts"], refused["last_status"]) == (1, None)
    assert refused["last_error"].startswith("not sent: the URL has a host, 'localhost'")
    assert "127.0.0.1" in refused["last_error"] or "::1" in refused["last_error"]


def test_the_whole_exchange_gets_the_configured_timeout(settings: Settings, app: FastAPI) -> None:
    patient = WebhookDispatcher(
        app.state.database, settings.model_copy(update={"webhook_timeout_s": 30})
    )
    # httpx's default (5 s per read) cut deliveries short of the setting.
    timeout = patient.http.timeout
    assert (timeout.connect, timeout.read, timeout.write, timeout.pool) == (30, 30, 30, 30)


@pytest.mark.parametrize("change", ["delete", "pause", "new url"])
async def test_a_batch_under_way_stops_when_its_webhook_is_deleted_paused_or_moved(
    client: httpx.AsyncClient,
    app: FastAPI,
    dispatcher: WebhookDispatcher,
    receiver: Receiver,
    change: str,
) -> None:
    # The change must land while the first delivery is under way: it is held unanswered until
    # then. Held from the start: the app's own dispatcher polls too, and may claim the webhook
    # before this round does (a delay of 2 s on each answer still let it deliver all three on
    # a loaded CI machine); whichever dispatcher delivers, one delivery is under way.
    receiver.gate = threading.Event()
    webhook = await create(client, receiver.url, types=["knowledge_base.created"])
    for n in range(3):
        await make_kb(client, f"kb{n}")
    round_ = asyncio.create_task(dispatcher.run_once())
    await receiver.wait_for(1, timeout_s=10)
    url = f"{HOOKS}/{webhook['id']}"
    if change == "delete":
        assert (await client.delete(url)).status_code == 204
    elif change == "pause":
        assert (await client.patch(url, json={"active": False})).status_code == 200
    else:
        moved = await client.patch(url, json={"url": receiver.url + "/moved"})
        assert moved.status_code == 200
    receiver.gate.set()
    await round_
    assert len(receiver.received) == 1  # the one under way when it changed, no more
    if change == "new url":
        await deliver(dispatcher, receiver, 3)
        assert [r.path for r in receiver.received] == ["/", "/moved", "/moved"]


async def test_explicit_nulls_in_a_patch_are_refused(
    client: httpx.AsyncClient, receiver: Receiver
) -> None:
    webhook = await create(client, receiver.url)
    for body in ({"url": None}, {"active": None}, {"description": None}):
        response = await client.patch(f"{HOOKS}/{webhook['id']}", json=body)
        assert response.status_code == 422, body
    assert (await client.patch(f"{HOOKS}/{webhook['id']}", json={"types": None})).status_code == 200
