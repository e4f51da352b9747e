"""What the context header costs the model: SciFact abstracts parsed and chunked as ingestion
does (JSON text uploads, default chunking, the built-in int8 model's tokenizer), then each
chunk embedded with and without its header, in alternating passes on the same provider.

Usage: scripts/bench-context-header [--limit 400] [--rounds 3] [--data DIR]
Prints chunks/s and tokens read per chunk for both inputs, medians over the rounds, and
their ratio. The model is about 80 % of ingestion's CPU (docs/benchmarks.md), so this ratio
bounds the header's cost to ingestion throughput from above.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.chunks.embedding import embedding_input  # noqa: E402
from app.config import Settings  # noqa: E402
from app.documents.ingest_work import token_counter  # noqa: E402
from app.embeddings.registry import DEFAULT_LOCAL, build_provider  # noqa: E402
from app.ingestion.chunking import ChunkingConfig, chunk_document  # noqa: E402
from app.ingestion.parse import parse_document  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "eval" / "scifact")
    parser.add_argument("--limit", type=int, default=400, help="first N documents")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with gzip.open(args.data / "corpus.jsonl.gz", "rt", encoding="utf-8") as lines:
        docs = [json.loads(line) for _, line in zip(range(args.limit), lines, strict=False)]
    provider = build_provider(DEFAULT_LOCAL, model_dir=Settings().model_dir)
    assert provider is not None
    counter, window = token_counter(provider)
    inputs: dict[bool, list[str]] = {True: [], False: []}
    for doc in docs:
        parsed = parse_document(
            f"{doc['title']} {doc['text']}".encode(), format="text", title=doc["title"]
        )
        for draft in chunk_document(parsed, ChunkingConfig(), counter, embedder_window=window):
            for header in (True, False):
                inputs[header].append(
                    embedding_input(
                        draft.text,
                        title=parsed.title,
                        section_titles=draft.section_titles,
                        header=header,
                    )
                )
    provider.embed_documents(inputs[False][:32])  # warm-up
    rates: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(args.rounds):
        for header in (False, True):
            started = time.perf_counter()
            for start in range(0, len(inputs[header]), 32):
                provider.embed_documents(inputs[header][start : start + 32])
            rates[header].append(len(inputs[header]) / (time.perf_counter() - started))
    tokens = {
        header: statistics.fmean(min(counter.count_tokens(t), window) for t in texts)
        for header, texts in inputs.items()
    }
    print(f"{len(docs)} documents, {len(inputs[True])} chunks, {args.rounds} rounds")
    print("| model input | chunks/s (median) | tokens read per chunk |")
    print("| --- | --- | --- |")
    for header in (False, True):
        name = "title + section path + text" if header else "text alone"
        print(f"| {name} | {statistics.median(rates[header]):.1f} | {tokens[header]:.0f} |")
    ratio = statistics.median(rates[True]) / statistics.median(rates[False])
    print(f"ratio with / without header: {ratio:.3f}")


if __name__ == "__main__":
    main()
