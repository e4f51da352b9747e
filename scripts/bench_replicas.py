"""What read replicas cost and where reads land: one primary, one streaming standby.

`scripts/bench-replicas`: an embedded primary and a standby of it (`pg_basebackup -R`, as the
tests build one), the whole ASGI app in process twice on the same database: without replicas,
and with the standby in `DATABASE_READ_URLS`. Each step runs through both apps back to back
in a random order, one request at a time (paired, as the machine is shared):
- a write (`PATCH` of a knowledge base): with replicas it also reads the primary's WAL
  position for its consistency token;
- a text search: on the primary, and on the replica;
- with replicas only, a read presenting the token of the write just before it: served by the
  replica when it had replayed the write already, else by the primary.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from prometheus_client import REGISTRY

from app.config import Settings
from app.db.consistency import HEADER
from app.db.embedded import EmbeddedPostgres
from app.db.migrate import upgrade_to_head
from app.main import create_app
from tests.db.standby import Standby
from tests.fakes import FakeEmbedders

WORDS = [
    *("leave", "canteen", "parking", "payroll", "laptop"),
    *("badge", "travel", "expenses", "holiday", "pension"),
]


def reads(target: str) -> float:
    return REGISTRY.get_sample_value("arbor_db_read_transactions_total", {"target": target}) or 0.0


async def timed(call: Any) -> tuple[float, httpx.Response]:
    started = time.perf_counter()
    response: httpx.Response = await call
    response.raise_for_status()
    return time.perf_counter() - started, response


async def measure(plain: httpx.AsyncClient, replicated: httpx.AsyncClient, kb: str, n: int) -> Any:
    rng = np.random.default_rng(3)
    found: dict[str, list[float]] = {
        "write without": [],
        "write with": [],
        "search primary": [],
        "search replica": [],
        "token read": [],
    }
    on_replica = 0
    for index in range(n):
        clients = [("without", plain), ("with", replicated)]
        rng.shuffle(clients)  # type: ignore[arg-type]
        token = ""
        for label, client in clients:
            seconds, response = await timed(
                client.patch(f"/v1/knowledge-bases/{kb}", json={"description": f"v{index}"})
            )
            found[f"write {label}"].append(seconds)
            token = response.headers.get(HEADER, token)
        body = {"query": str(rng.choice(WORDS)), "mode": "text"}
        for label, client in [("primary", plain), ("replica", replicated)]:
            seconds, _ = await timed(client.post(f"/v1/knowledge-bases/{kb}/search", json=body))
            found[f"search {label}"].append(seconds)
        before = reads("replica")
        seconds, _ = await timed(
            replicated.get(f"/v1/knowledge-bases/{kb}", headers={HEADER: token})
        )
        found["token read"].append(seconds)
        on_replica += int(reads("replica") > before)
    return found, on_replica


async def main_async(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory(prefix="arbor-bench-") as tmp:
        server = EmbeddedPostgres(Path(tmp) / "pg", delete_on_close=True, shared_buffers="256MB")
        url = server.start()
        standby = Standby(url)
        try:
            await asyncio.to_thread(upgrade_to_head, url)
            started = time.perf_counter()
            standby.create()
            standby_s = time.perf_counter() - started
            plain_settings = Settings(env="test", database_url=url)
            replicated_settings = Settings(
                env="test",
                database_url=url,
                workers=0,
                database_read_urls=[standby.url("postgres")],
            )
            embedders = FakeEmbedders()
            plain_app = create_app(plain_settings, embedder_factory=embedders)
            replicated_app = create_app(replicated_settings, embedder_factory=embedders)
            async with (
                plain_app.router.lifespan_context(plain_app),
                replicated_app.router.lifespan_context(replicated_app),
                httpx.AsyncClient(
                    transport=httpx.ASGITransport(app=plain_app), base_url="http://b"
                ) as plain,
                httpx.AsyncClient(
                    transport=httpx.ASGITransport(app=replicated_app), base_url="http://b"
                ) as replicated,
            ):
                created = await plain.post("/v1/knowledge-bases", json={"name": "bench"})
                created.raise_for_status()
                kb = str(created.json()["id"])
                for index in range(args.documents):
                    text = " ".join(WORDS[(index + k) % len(WORDS)] for k in range(40))
                    uploaded = await plain.post(
                        f"/v1/knowledge-bases/{kb}/documents",
                        params={"wait": "true"},
                        json={"text": text, "external_id": f"d{index}"},
                    )
                    uploaded.raise_for_status()
                replicas = replicated_app.state.database.replicas
                for _ in range(600):  # the first checks: until the standby is in use
                    if replicas.replicas[0].healthy:
                        break
                    await asyncio.sleep(0.1)
                await measure(plain, replicated, kb, 20)  # warm-up
                timings, on_replica = await measure(plain, replicated, kb, args.rounds)
        finally:
            standby.remove()
            server.stop()
    ms = {label: np.asarray(values) * 1000 for label, values in timings.items()}
    p50 = {label: float(np.median(values)) for label, values in ms.items()}
    token_cost = float(np.median(ms["write with"] - ms["write without"]))
    return "\n".join(
        [
            "## Read replicas (`scripts/bench-replicas`)",
            "",
            f"An embedded primary and one streaming standby on the same 2-core machine (the "
            f"standby made with `pg_basebackup -R` and started in {standby_s:.1f} s), the "
            f"whole ASGI app in process, {args.documents} documents, {args.rounds} rounds, "
            "one request at a time; write and search pairs run back to back.",
            "",
            "| step | p50 ms |",
            "| --- | --- |",
            f"| write (`PATCH` knowledge base), no replicas | {p50['write without']:.2f} |",
            f"| write, with replicas (+ its consistency token) | {p50['write with']:.2f} |",
            f"| text search on the primary | {p50['search primary']:.2f} |",
            f"| text search on the replica | {p50['search replica']:.2f} |",
            f"| read presenting the token of the write just before | {p50['token read']:.2f} |",
            "",
            f"The token costs a write {token_cost:+.2f} ms (median paired difference: one "
            "round trip for `pg_current_wal_insert_lsn()`). Reads presenting the token of the "
            f"write just before them: {on_replica} of {args.rounds} served by the replica "
            f"(it had replayed the write already), {args.rounds - on_replica} by the primary. "
            "The figures show "
            "the cost of routing, not the gain: on one machine the replica competes with the "
            "primary for the same two cores; the gain is the primary's CPU and I/O left to "
            "ingestion when the replicas run elsewhere.",
            "",
            f"Command: `scripts/bench-replicas --rounds {args.rounds} --documents "
            f"{args.documents}`.",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--documents", type=int, default=50)
    print(asyncio.run(main_async(parser.parse_args())))


if __name__ == "__main__":
    main()
