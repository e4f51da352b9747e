"""docker-compose.scale.yml, read as Compose would (no Docker daemon here to run it): the
services a many-node deployment needs, wired to each other, and every file it mounts exists."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def load() -> dict[str, Any]:
    document = yaml.safe_load((ROOT / "docker-compose.scale.yml").read_text())
    assert isinstance(document, dict)
    return document


def test_primary_replica_apis_workers_and_a_proxy() -> None:
    services = load()["services"]
    assert set(services) == {"db-primary", "db-replica", "api", "worker", "proxy"}
    api, worker = services["api"], services["worker"]
    # The APIs queue jobs and leave them to the workers; both write to the primary.
    assert api["command"] == ["arbor", "serve"]
    assert api["environment"]["ARBOR_WORKERS"] == "0"
    assert worker["command"] == ["arbor", "worker"]
    for service in (api, worker):
        assert "@db-primary:5432/" in service["environment"]["DATABASE_URL"]
        assert service["depends_on"]["db-primary"]["condition"] == "service_healthy"
        assert "replicas" in service["deploy"]
    assert "@db-replica:5432/" in api["environment"]["DATABASE_READ_URLS"]
    # Only the proxy is published; it sends to the api service on the port the api listens on.
    assert "ports" not in api
    assert services["proxy"]["ports"] == ["127.0.0.1:8000:8000"]
    nginx = (ROOT / "deploy/nginx/arbor.conf").read_text()
    assert re.search(rf"server api:{api['environment']['PORT']} resolve;", nginx)
    assert "proxy_buffering off;" in nginx  # answers stream as server-sent events
    # The primary accepts replication; the standby is cloned from it.
    primary_command = " ".join(services["db-primary"]["command"])
    assert "wal_level=replica" in primary_command
    replica = services["db-replica"]
    assert replica["environment"]["PRIMARY_HOST"] == "db-primary"
    assert "pg_basebackup" in (ROOT / "deploy/postgres/replica-entrypoint.sh").read_text()


def test_every_mounted_file_exists() -> None:
    mounts = [
        volume.split(":")[0]
        for service in load()["services"].values()
        for volume in service.get("volumes", [])
        if volume.startswith("./")
    ]
    assert mounts
    for mount in mounts:
        assert (ROOT / mount).is_file(), mount
