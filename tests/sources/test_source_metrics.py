"""Sync runs, health checks and pushed records in `GET /metrics`."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from tests.operations.helpers import samples, value
from tests.sources.test_sources import SOURCES, all_ready, dry, kb, sync

__all__ = ["kb"]  # the fixture, shared with the sources tests

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(client: httpx.AsyncClient, *secrets: str) -> Samples:
    response = await client.get("/metrics")
    assert response.status_code == 200, response.text
    for secret in secrets:  # no source name, path or record id in any label
        assert secret not in response.text
    return samples(response.text)


@pytest.mark.usefixtures("kb")
async def test_sync_runs_items_duration_and_health_are_counted(
    client: httpx.AsyncClient, settings: Settings, tmp_path: Path
) -> None:
    root = tmp_path / "handbook-folder"
    root.mkdir()
    (root / "a.md").write_text("# Alpha\n\nApples grow in the orchard.")
    (root / "b.txt").write_text("Bananas ripen in the sun.")
    settings.source_roots = [tmp_path]
    created = await client.post(
        SOURCES, json={"name": "secret-source", "kind": "folder", "path": str(root)}
    )
    assert created.status_code == 201, created.text
    secrets = ("secret-source", "handbook-folder", "a.md", "crm-record")
    before = await scrape(client, *secrets)

    assert (await dry(client, "secret-source"))["counts"]["to_add"] == 2
    first = await sync(client, "secret-source")
    assert first["counts"]["to_add"] == 2
    await all_ready(client)
    # One changed, one deleted, one added, one that cannot be read (a dangling link).
    (root / "a.md").write_text("# Alpha\n\nApples and apricots grow in the orchard.")
    (root / "b.txt").unlink()
    (root / "c.md").write_text("# Cherry\n\nCherries are red.")
    (root / "broken.md").symlink_to(root / "missing.md")
    second = await sync(client, "secret-source")
    assert second["counts"] == {"to_add": 1, "to_update": 1, "to_delete": 1, "unchanged": 0,
                                "failed": 1}  # fmt: skip
    assert (await client.get(f"{SOURCES}/secret-source/health")).json()["ok"] is True
    # The folder gone: the health check fails, and so does a run (it cannot list anything).
    shutil.rmtree(root)
    assert (await client.get(f"{SOURCES}/secret-source/health")).json()["ok"] is False
    assert (await sync(client, "secret-source"))["status"] == "failed"

    pushed = await client.post(
        SOURCES, json={"name": "crm", "kind": "records"}
    )  # a records source: pushed, never listed
    assert pushed.status_code == 201, pushed.text
    for records in (
        [{"op": "upsert", "record_id": "crm-record", "content": "Account notes."}],
        [{"op": "upsert", "record_id": "crm-record", "content": "Account notes, v2."}],
        [{"op": "delete", "record_id": "crm-record"}, {"op": "delete", "record_id": "absent"}],
    ):
        response = await client.post(f"{SOURCES}/crm/records", json={"records": records})
        assert response.status_code == 200, response.text

    after = await scrape(client, *secrets)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    runs = "arbor_source_sync_runs_total"
    assert delta(runs, kind="folder", outcome="succeeded", dry_run="true") == 1
    assert delta(runs, kind="folder", outcome="succeeded", dry_run="false") == 2
    assert delta(runs, kind="folder", outcome="failed", dry_run="false") == 1
    items = "arbor_source_sync_items_total"
    # Real runs only: the dry run's plan changed nothing.
    assert delta(items, kind="folder", action="added") == 3
    assert delta(items, kind="folder", action="updated") == 1
    assert delta(items, kind="folder", action="deleted") == 1
    assert delta(items, kind="folder", action="failed") == 1
    assert delta("arbor_source_sync_duration_seconds_count", kind="folder") == 3
    assert delta("arbor_source_sync_duration_seconds_sum", kind="folder") >= 0
    health = "arbor_source_health_checks_total"
    assert delta(health, kind="folder", outcome="ok") == 1
    assert delta(health, kind="folder", outcome="failing") == 1
    assert delta(items, kind="records", action="added") == 1
    assert delta(items, kind="records", action="updated") == 1
    assert delta(items, kind="records", action="deleted") == 1
