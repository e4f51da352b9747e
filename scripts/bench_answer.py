"""The answer flow's own cost, and what the extractive generator cites, on BEIR SciFact.

Starts `arbor serve` (temporary data dir, the built-in all-MiniLM-L6-v2 int8 model) pointed
at the fake OpenAI-compatible chat server of the test suite, run in this process with a fixed
latency (`--llm-first-byte-ms` before its first byte, `--llm-chunk-ms` between chunks). A
subset of SciFact keeps the run to a few minutes on a busy machine: the documents relevant to
the first `--queries` test claims plus `--distractors` others, one chunk each.

For each claim, sequentially over HTTP:
1. a plain hybrid search (top_k 8): its latency;
2. a streamed quick-mode answer with the (fake) LLM: time to the first `sources` event and
   to the first `delta` event, measured at the client from sending the request;
3. a streamed standard-mode extractive answer (lexical analysis, no LLM): time to `sources`,
   and to `done`;
and from 3, the extractive answer's citation precision: the share of cited sources whose
document is relevant to the claim per the qrels (a source is one chunk = one document here).
`--write` puts the table in docs/benchmarks.md between this script's markers.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.eval import (  # noqa: E402
    external_ids,
    ingest_chunks,
    load_corpus,
    load_qrels,
    load_queries,
    refresh_text_statistics,
    server,
    write_section,
)
from tests.fake_openai import ChatReply, FakeChat, serve_in_thread  # noqa: E402

START, END = "<!-- answer-bench:start -->", "<!-- answer-bench:end -->"
ANSWER_TEXT = (
    "The sources report a measurable effect [1]. The second source qualifies it for the "
    "population studied [2]. Further work is needed to confirm it in other settings [1]."
)


def timed_stream(http: httpx.Client, url: str, body: dict[str, Any]) -> dict[str, Any]:
    """Seconds from sending to the first `sources`, first `delta` and `done` events."""
    started = time.perf_counter()
    marks: dict[str, Any] = {}
    event = None
    with http.stream("POST", url, json={**body, "stream": True}) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
                marks.setdefault(event, time.perf_counter() - started)
            elif line.startswith("data: ") and event in ("done", "error"):
                marks[f"{event}_body"] = json.loads(line[6:])
    if "done_body" not in marks:
        raise SystemExit(f"no done event: {marks.get('error_body')}")
    return marks


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--distractors", type=int, default=900)
    parser.add_argument("--llm-first-byte-ms", type=float, default=200.0)
    parser.add_argument("--llm-chunk-ms", type=float, default=10.0)
    parser.add_argument("--write", action="store_true", help="update docs/benchmarks.md")
    parser.add_argument(
        "--data-dir",
        type=Path,
        help="keep the server's data here; a later run with the same folder skips ingestion",
    )
    args = parser.parse_args()

    corpus, qrels = load_corpus(), load_qrels()
    queries = [q for q in load_queries() if q["_id"] in qrels][: args.queries]
    relevant = {doc for q in queries for doc in qrels[q["_id"]]}
    others = [d for d in corpus if d["_id"] not in relevant]
    random.Random(7).shuffle(others)
    subset = [d for d in corpus if d["_id"] in relevant] + others[: args.distractors]

    fake = FakeChat(
        responder=lambda _body: ChatReply(
            ANSWER_TEXT,
            delay_s=args.llm_first_byte_ms / 1000,
            chunk_delay_s=args.llm_chunk_ms / 1000,
        )
    )
    llm = serve_in_thread(0, chat=fake)
    env = {
        "ARBOR_LLM_BASE_URL": f"http://127.0.0.1:{llm.server_address[1]}/v1",
        "ARBOR_LLM_MODEL": "fake",
    }
    search_s: list[float] = []
    quick_sources: list[float] = []
    quick_delta: list[float] = []
    extractive_sources: list[float] = []
    extractive_done: list[float] = []
    cited = cited_relevant = sources = sources_relevant = answered = 0
    with contextlib.ExitStack() as stack:
        data_dir = args.data_dir or Path(
            stack.enter_context(tempfile.TemporaryDirectory(prefix="arbor-answer-"))
        )
        data_dir.mkdir(parents=True, exist_ok=True)
        base = stack.enter_context(server(data_dir, env))
        http = stack.enter_context(httpx.Client(base_url=base, timeout=600))
        name = f"scifact-{args.queries}-{args.distractors}"
        existing = http.get(f"/v1/knowledge-bases/{name}")
        ingest_s = 0.0
        if existing.status_code == 200:
            kb_id = existing.json()["id"]
        else:
            kb = http.post("/v1/knowledge-bases", json={"name": name})
            kb.raise_for_status()
            kb_id = kb.json()["id"]
            started = time.perf_counter()
            ingest_chunks(http, kb_id, subset, 128)
            ingest_s = time.perf_counter() - started
        refresh_text_statistics(http, kb_id)
        external = external_ids(http, kb_id)
        answer_url = f"/v1/knowledge-bases/{kb_id}/answer"
        # One warm-up of each path (model session, statement caches).
        http.post(f"/v1/knowledge-bases/{kb_id}/search", json={"query": "warm up", "top_k": 8})
        timed_stream(http, answer_url, {"query": "warm up", "mode": "quick"})
        for query in queries:
            claim = query["text"]
            t0 = time.perf_counter()
            found = http.post(
                f"/v1/knowledge-bases/{kb_id}/search", json={"query": claim, "top_k": 8}
            )
            found.raise_for_status()
            search_s.append(time.perf_counter() - t0)

            quick = timed_stream(http, answer_url, {"query": claim, "mode": "quick"})
            quick_sources.append(quick["sources"])
            if "delta" in quick:
                quick_delta.append(quick["delta"])

            extractive = timed_stream(http, answer_url, {"query": claim, "generator": "extractive"})
            extractive_sources.append(extractive["sources"])
            extractive_done.append(extractive["done"])
            done = extractive["done_body"]
            wanted = qrels[query["_id"]]
            by_n = {s["n"]: s for s in done["sources"]}
            sources += len(by_n)
            sources_relevant += sum(1 for s in by_n.values() if external[s["doc_id"]] in wanted)
            if done["citations"]:
                answered += 1
            for citation in done["citations"]:
                cited += 1
                cited_relevant += external[citation["doc_id"]] in wanted
    llm.shutdown()

    def ms(values: list[float], q: float) -> str:
        return f"{percentile(values, q) * 1000:.0f}" if values else "-"

    ratio = statistics.median(quick_sources) / statistics.median(search_s)
    lines = [
        "## Answers: flow overhead and extractive citations (`scripts/bench-answer`)",
        "",
        f"{len(queries)} SciFact test claims over {len(subset)} documents (those relevant to "
        f"the claims and {args.distractors} others, one chunk each"
        + (f", ingested in {ingest_s:.0f} s" if ingest_s else "")
        + "); all-MiniLM-L6-v2 int8; sequential HTTP requests to `arbor serve`; "
        f"the fake LLM waits {args.llm_first_byte_ms:.0f} ms before its first byte and "
        f"{args.llm_chunk_ms:.0f} ms between chunks. Times from sending the request, at the "
        "client.",
        "",
        "| measure | p50 ms | p95 ms |",
        "| --- | --- | --- |",
        f"| plain hybrid search, top_k 8 | {ms(search_s, 0.5)} | {ms(search_s, 0.95)} |",
        f"| quick answer, LLM: first `sources` event | {ms(quick_sources, 0.5)} | "
        f"{ms(quick_sources, 0.95)} |",
        f"| quick answer, LLM: first `delta` event | {ms(quick_delta, 0.5)} | "
        f"{ms(quick_delta, 0.95)} |",
        f"| standard answer, extractive: first `sources` event | {ms(extractive_sources, 0.5)} | "
        f"{ms(extractive_sources, 0.95)} |",
        f"| standard answer, extractive: `done` | {ms(extractive_done, 0.5)} | "
        f"{ms(extractive_done, 0.95)} |",
        "",
        f"First `sources` event / plain search, p50: **{ratio:.2f}x** (goal: within 1.5x).",
        "",
        f"Extractive answers: {answered}/{len(queries)} cite a source; citation precision "
        f"(cited sources relevant per the qrels) **{cited_relevant / max(cited, 1):.3f}** "
        f"({cited_relevant}/{cited}); for comparison, the share of all numbered sources given "
        f"to the generator that are relevant is {sources_relevant / max(sources, 1):.3f} "
        f"({sources_relevant}/{sources}).",
        "",
        f"Command: `scripts/bench-answer --queries {args.queries} --distractors "
        f"{args.distractors}{' --write' if args.write else ''}`.",
    ]
    table = "\n".join(lines)
    print(table)
    if args.write:
        write_section(table, START, END)


if __name__ == "__main__":
    main()
