"""Benchmark the local embedder: 256-token chunk throughput, query latency, load time, RSS.

Each (variant, threads) setting runs in a fresh subprocess so load time and peak RSS are its own.
Texts come from the SciFact corpus in shared/eval; prints a markdown table.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
EVAL = Path(os.environ.get("ARBOR_EVAL_DIR", REPO.parent / "shared" / "eval")) / "scifact"
CHUNK_TOKENS = 256


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Rows of a gzipped JSON-lines file."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def make_chunks(tokenizer: Any, count: int) -> list[str]:
    """Texts of exactly CHUNK_TOKENS model tokens, cut from the corpus and re-tokenised."""
    ids: list[int] = []
    for doc in read_jsonl(EVAL / "corpus.jsonl.gz"):
        ids.extend(tokenizer.encode_ids(f"{doc['title']} {doc['text']}"))
        if len(ids) > count * CHUNK_TOKENS * 2:
            break
    chunks, start, width = [], 0, CHUNK_TOKENS - 2  # [CLS] and [SEP] take two
    while len(chunks) < count:
        end = start + width
        text = tokenizer.decode(ids[start:end])
        # Decoding can merge pieces; widen until the text is at least full (truncation caps it).
        while tokenizer.count_tokens(text) < CHUNK_TOKENS:
            end += 1
            text = tokenizer.decode(ids[start:end])
        chunks.append(text)
        start = end
    return chunks


def run_one(variant: str, threads: int, batch_sizes: list[int], args: argparse.Namespace) -> None:
    """Measure one setting in this process and print a JSON result line."""
    from app.embeddings.local import LocalOnnxEmbedder

    started = time.perf_counter()
    embedder = LocalOnnxEmbedder(args.model_dir, variant=variant, threads=threads)  # type: ignore[arg-type]
    load_s = time.perf_counter() - started

    queries = [q["text"] for q in read_jsonl(EVAL / "queries.jsonl.gz")][: args.queries]
    for query in queries[:10]:
        embedder.embed_query(query)
    latencies = []
    for query in queries:
        tick = time.perf_counter()
        embedder.embed_query(query)
        latencies.append((time.perf_counter() - tick) * 1000)
    latencies.sort()

    chunks = make_chunks(embedder.tokenizer, args.chunks)
    tokens = sum(min(embedder.tokenizer.count_tokens(c), CHUNK_TOKENS) for c in chunks)
    throughput, peak_rss = {}, {}
    # Ascending batch sizes: the process's peak RSS after each is that batch size's peak.
    for batch_size in sorted(batch_sizes):
        embedder.batch_size = batch_size
        embedder.embed_documents(chunks[:batch_size])  # warm-up
        passes = []
        for _ in range(args.repeat):
            tick = time.perf_counter()
            embedder.embed_documents(chunks)
            passes.append(time.perf_counter() - tick)
        throughput[batch_size] = len(chunks) / min(passes)
        peak_rss[batch_size] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "variant": variant,
                "threads": threads,
                "chunk_tokens": tokens / len(chunks),
                "chunks_per_s": throughput,
                "peak_rss_mib": peak_rss,
                "query_p50_ms": latencies[len(latencies) // 2],
                "query_p95_ms": latencies[int(len(latencies) * 0.95)],
                "load_s": load_s,
            }
        )
    )


def main() -> None:
    """Run every setting in a subprocess and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--model-dir",
        type=Path,
        default=Path(os.environ.get("ARBOR_MODEL_DIR", REPO / "models")) / "all-MiniLM-L6-v2",
    )
    parser.add_argument("--variants", default="int8,fp32")
    parser.add_argument("--threads", default=str(len(os.sched_getaffinity(0))))
    parser.add_argument("--batch-sizes", default="1,8,16,32")
    parser.add_argument("--chunks", type=int, default=256)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes; the fastest counts")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    batch_sizes = [int(b) for b in args.batch_sizes.split(",")]
    if args.one:
        run_one(args.variants, int(args.threads), batch_sizes, args)
        return

    rows = []
    for variant in args.variants.split(","):
        for threads in args.threads.split(","):
            command = [sys.executable, __file__, "--one", *_forward(args, variant, threads)]
            result = subprocess.run(command, check=True, capture_output=True, text=True)
            rows.append(json.loads(result.stdout.strip().splitlines()[-1]))
            print(f"measured {variant} with {threads} threads", file=sys.stderr, flush=True)

    print(
        f"\n{args.chunks} chunks of {CHUNK_TOKENS} tokens, {args.queries} queries one at a time, "
        f"{os.cpu_count()} CPUs\n"
    )
    print(
        "| variant | threads | batch | chunks/s | tokens/s | query p50 ms | query p95 ms "
        "| load s | peak RSS MiB |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        for batch, rate in row["chunks_per_s"].items():
            print(
                f"| {row['variant']} | {row['threads']} | {batch} | {rate:.1f} "
                f"| {rate * row['chunk_tokens']:.0f} | {row['query_p50_ms']:.2f} "
                f"| {row['query_p95_ms']:.2f} | {row['load_s']:.2f} "
                f"| {row['peak_rss_mib'][batch]:.0f} |"
            )


def _forward(args: argparse.Namespace, variant: str, threads: str) -> list[str]:
    return [
        f"--model-dir={args.model_dir}",
        f"--variants={variant}",
        f"--threads={threads}",
        f"--batch-sizes={args.batch_sizes}",
        f"--chunks={args.chunks}",
        f"--queries={args.queries}",
        f"--repeat={args.repeat}",
    ]


if __name__ == "__main__":
    main()
