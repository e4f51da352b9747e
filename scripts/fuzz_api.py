"""Schemathesis over a running Arbor's /openapi.json: every operation, stateful links.

Usage: scripts/fuzz [--duration SECONDS] [--seed N] [--url http://host:port]
Without --url it starts `arbor serve` on an empty data dir and a free port, seeds it (a
knowledge base with a ready document, a webhook: `seed`) and stops it afterwards. Fails (exit
status 1) on any 5xx, undocumented status code, response that breaks its schema, or content
type the operation does not declare. tests/test_fuzz_api.py runs the same for a minute.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_schema_conformance"
)
TEXT = "# Rivers\n\nThe river floods in spring.\n\n## Seeds\n\nSeeds sprout in the wet soil."


async def seed(base: str) -> str:
    """Things for generated requests to find, and the schemathesis.toml that names them: a
    knowledge base with a ready document, its chunk, node and job, a webhook; deletes of a
    whole knowledge base or document go to spare ones, so the rest stay reachable."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for name in ("fuzz", "spare"):
            created = await http.post("/v1/knowledge-bases", json={"name": name})
            assert created.status_code == 201, created.text
        kb = "/v1/knowledge-bases/fuzz"
        for external_id in ("guide", "spare"):
            uploaded = await http.post(
                f"{kb}/documents?wait=true",
                json={"text": TEXT, "external_id": external_id, "metadata": {"team": "fuzz"}},
            )
            assert uploaded.status_code == 200, uploaded.text
        chunks = (await http.get(f"{kb}/documents/guide/chunks")).json()["items"]
        tree = (await http.get(f"{kb}/documents/guide/tree")).json()
        refreshed = await http.post(f"{kb}/text-statistics/refresh")
        assert refreshed.status_code == 202, refreshed.text
        hook = await http.post("/v1/webhooks", json={"url": "http://127.0.0.1:9/hook"})
        assert hook.status_code == 201, hook.text
    return f"""
[parameters]
kb = "fuzz"
doc = "guide"
chunk_id = "{chunks[0]["chunk_id"]}"
node_id = "{tree["root"]["node_id"]}"
job_id = "{refreshed.json()["id"]}"
project = "default"
webhook_id = "{hook.json()["id"]}"

[[operations]]
include-path = "/v1/knowledge-bases/{{kb}}"
include-method = "DELETE"
parameters = {{ kb = "spare" }}

[[operations]]
include-path = "/v1/knowledge-bases/{{kb}}/documents/{{doc}}"
include-method = "DELETE"
parameters = {{ doc = "spare" }}
"""


def command(
    base: str,
    *,
    max_time_s: int,
    seed_value: int | None,
    phases: str | None = None,
    max_examples: int | None = None,
) -> list[str]:
    """The schemathesis run, time-bounded: every phase (or `phases`), the contract checks.

    `max_examples` caps the generated cases per operation, so that a short run reaches every
    operation instead of spending its time on the first few.
    """
    run = [
        str(Path(sys.executable).with_name("schemathesis")),
        "run",
        f"{base}/openapi.json",
        "--checks",
        CHECKS,
        "--max-time",
        str(max_time_s),
        "--workers",
        "1",
        "--request-timeout",
        # Above the longest wait a request may ask for (`GET /v1/events?wait=60`).
        "75",
        "--suppress-health-check",
        "all",
    ]
    if seed_value is not None:
        run += ["--seed", str(seed_value)]
    if phases is not None:
        run += ["--phases", phases]
    if max_examples is not None:
        run += ["--max-examples", str(max_examples)]
    return run


def wait_ready(base: str, server: subprocess.Popen[bytes]) -> None:
    from scripts.bench_ingest import wait_until_ready

    wait_until_ready(base, server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--duration", type=int, default=600, help="seconds of generated requests")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis seed (random)")
    parser.add_argument("--url", default=None, help="a running, seeded server instead")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="arbor-fuzz-"))
    server = None
    try:
        base = args.url
        if base is None:
            from scripts.bench_ingest import free_port

            port = free_port()
            base = f"http://127.0.0.1:{port}"
            env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
            env.update(ARBOR_DATA_DIR=str(work / "data"), PORT=str(port), ARBOR_LOG_LEVEL="warning")
            log = (work / "server.log").open("wb")
            server = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "serve"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            wait_ready(base, server)
            (work / "schemathesis.toml").write_text(asyncio.run(seed(base)))
        status = subprocess.call(
            command(base, max_time_s=args.duration, seed_value=args.seed), cwd=work
        )
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
            if server.returncode not in (0, 128 + signal.SIGTERM):
                print((work / "server.log").read_text()[-5000:], file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)
    raise SystemExit(status)


if __name__ == "__main__":
    main()
