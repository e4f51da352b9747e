"""Searches that rotate over many knowledge bases: what each costs when few repeat.

A knowledge base searched again soon gets a search statement of its own whose generic plan
Postgres keeps (app/search/plan_reuse.py); one searched once in a while shares a statement
that is planned for each search. This measures the second case: `--kbs` knowledge bases of
`--chunks` chunks each (random words and unit vectors through the chunk API), then hybrid
searches of each in turn, `--rounds` times over (query vectors given, so that the model is not
in the figures): p50 wall time and Postgres CPU per search (as `--http` measures them).

`--baseline DIR` also serves a copy of the same data with the code of another checkout
(`git worktree add DIR <commit>`), the two servers taking turns in blocks of 25 searches.
`--data-dir DIR` keeps the data; a later run with the same folder skips loading it.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.bench_http import postmaster_pid  # noqa: E402
from scripts.bench_ingest import cpu_seconds  # noqa: E402
from scripts.eval import served  # noqa: E402

WORDS = [
    "river",
    "stone",
    "cloud",
    "light",
    "field",
    "harbor",
    "meadow",
    "copper",
    "signal",
    "garden",
    "forest",
    "bridge",
    "winter",
    "summer",
    "valley",
]
BLOCK = 25


def load(
    data_dir: Path, kbs: int, chunks: int, rng: random.Random, vectors: np.random.Generator
) -> None:
    with served(data_dir) as (base, _), httpx.Client(base_url=base, timeout=120) as http:
        for k in range(kbs):
            http.post("/v1/knowledge-bases", json={"name": f"kb{k}"}).raise_for_status()
            body = [
                {
                    "doc_id": f"d{i // 4}",
                    "text": " ".join(rng.choices(WORDS, k=30)),
                    "vector": unit(vectors),
                }
                for i in range(chunks)
            ]
            http.post(
                f"/v1/knowledge-bases/kb{k}/chunks/bulk", json={"chunks": body}
            ).raise_for_status()


def unit(vectors: np.random.Generator) -> list[float]:
    v = vectors.standard_normal(384)
    return [float(x) for x in v / np.linalg.norm(v)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kbs", type=int, default=150)
    parser.add_argument("--chunks", type=int, default=40, help="per knowledge base")
    parser.add_argument("--rounds", type=int, default=4, help="searches of each knowledge base")
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--baseline", type=Path, help="a checkout of the code to compare")
    args = parser.parse_args()
    rng, vectors = random.Random(1), np.random.default_rng(1)
    with contextlib.ExitStack() as stack:
        data = args.data_dir or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        if not (data / "pg").exists():
            data.mkdir(parents=True, exist_ok=True)
            load(data, args.kbs, args.chunks, rng, vectors)
        servers = [("this code", ROOT, data)]
        if args.baseline is not None:
            copy = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "data"
            # cp -a keeps the data folder's owner (the embedded server's system user).
            subprocess.run(["cp", "-a", str(data), str(copy)], check=True)
            servers.insert(0, ("baseline", args.baseline, copy))
        searches = [
            (f"kb{i % args.kbs}", " ".join(rng.choices(WORDS, k=3)), unit(vectors))
            for i in range(args.kbs * args.rounds)
        ]
        running = []
        for name, root, folder in servers:
            base, pid = stack.enter_context(served(folder, root=root, log_name="rotation.log"))
            http = stack.enter_context(httpx.Client(base_url=base, timeout=120))
            running.append((name, http, (pid, postmaster_pid(folder)), [], [0.0]))
        for _, http, _, _, _ in running:  # every knowledge base searched once first
            for kb, query, vector in searches[: args.kbs]:
                search(http, kb, query, vector)
        for start in range(0, len(searches), BLOCK):
            order = running if (start // BLOCK) % 2 == 0 else running[::-1]
            for _, http, pids, times, postgres in order:
                before = cpu_seconds(*pids)
                for kb, query, vector in searches[start : start + BLOCK]:
                    started = time.perf_counter()
                    search(http, kb, query, vector)
                    times.append((time.perf_counter() - started) * 1000)
                postgres[0] += cpu_seconds(*pids)["postgres"] - before["postgres"]
    print(
        f"{args.kbs} knowledge bases of {args.chunks} chunks, "
        f"each searched {args.rounds} times in turn"
    )
    print("| server | p50 ms | Postgres CPU ms per search |")
    print("| --- | --- | --- |")
    for name, _, _, times, postgres in running:
        print(
            f"| {name} | {statistics.median(times):.1f} | {postgres[0] * 1000 / len(times):.1f} |"
        )


def search(http: httpx.Client, kb: str, query: str, vector: list[float]) -> None:
    body = {"query": query, "vector": vector, "top_k": 10}
    http.post(f"/v1/knowledge-bases/{kb}/search", json=body).raise_for_status()


if __name__ == "__main__":
    main()
