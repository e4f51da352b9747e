"""Does enrichment or graph context change retrieval quality? SciFact nDCG@10, on and off.

A subset of BEIR SciFact: the first `--queries` test claims, the documents they judge, and
the corpus's first other documents as distractors up to `--documents`. Two knowledge bases
of the same documents through the ingestion pipeline (`arbor serve`, HTTP): `plain` (the
defaults) and `graphed` (enrichment: summaries, keywords, entities; graph: the local
extractor), whose graph jobs are waited for. Then, per knowledge base:

- search: nDCG@10 of the documents of `POST .../search` (hybrid, the default), and with
  `include: ["context"]` (the ancestors' summaries and entities returned with each hit);
- answers: nDCG@10 of the documents of the answer's `sources` (`POST .../answer`, extractive
  generator, standard mode): `graphed` packs graph definitions and facts beside the sources
  (the answers flow's graph seam), `plain` has none.

Metrics as scripts/eval (trec_eval's nDCG: linear gain, log2 discount).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.terminal.metrics import ndcg_at, unique  # noqa: E402
from scripts.eval import (  # noqa: E402
    external_ids,
    ingest_documents,
    load_corpus,
    load_qrels,
    load_queries,
    refresh_text_statistics,
    run,
    served,
)

GRAPHED = {
    "enrichment": {"summaries": True, "keywords": True, "entities": True},
    "graph": {"enabled": True, "extractor": "local"},
}


def subset(
    n_queries: int, n_documents: int
) -> tuple[list[dict[str, Any]], list[dict[str, str]], dict[str, dict[str, int]]]:
    qrels = load_qrels()
    queries = [q for q in load_queries() if q["_id"] in qrels][:n_queries]
    judged = {doc for q in queries for doc in qrels[q["_id"]]}
    corpus = load_corpus()
    chosen = [d for d in corpus if d["_id"] in judged]
    chosen += [d for d in corpus if d["_id"] not in judged][: max(0, n_documents - len(chosen))]
    return chosen, queries, {q["_id"]: qrels[q["_id"]] for q in queries}


def wait_for_graph(http: httpx.Client, kb: str) -> dict[str, Any]:
    while True:
        status = http.get(f"/v1/knowledge-bases/{kb}/graph/status").json()
        jobs = status["jobs"]
        if not jobs.get("queued") and not jobs.get("running"):
            return dict(status)
        time.sleep(2)


def answer_ndcg(
    http: httpx.Client,
    kb: str,
    queries: list[dict[str, str]],
    qrels: dict[str, dict[str, int]],
    external: dict[str, str],
) -> tuple[float, float, float]:
    """nDCG@10 of the sources' documents, mean sources and mean graph items per answer."""
    total = sources = graph_items = 0.0
    for query in queries:
        response = http.post(
            f"/v1/knowledge-bases/{kb}/answer",
            json={"query": query["text"], "generator": "extractive"},
        )
        response.raise_for_status()
        body = response.json()
        ranked = unique([external[source["doc_id"]] for source in body["sources"]])
        total += ndcg_at(ranked, qrels[query["_id"]])
        sources += len(body["sources"])
        graph_items += sum(
            int(action.get("data", {}).get("graph_items", 0))
            for action in body["actions"]
            if isinstance(action.get("data"), dict)
        )
    n = len(queries)
    return total / n, sources / n, graph_items / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--documents", type=int, default=1000)
    args = parser.parse_args()
    corpus, queries, qrels = subset(args.queries, args.documents)
    print(f"{len(queries)} test claims, {len(corpus)} documents", file=sys.stderr)
    with (
        tempfile.TemporaryDirectory(prefix="arbor-eval-graph-") as tmp,
        served(Path(tmp)) as (base, _pid),
        httpx.Client(base_url=base, timeout=600) as http,
    ):
        rows = []
        for name, settings in (("plain", {}), ("graphed", GRAPHED)):
            created = http.post("/v1/knowledge-bases", json={"name": name, **settings})
            created.raise_for_status()
            started = time.perf_counter()
            ingest_documents(http, name, corpus)
            status = wait_for_graph(http, name)
            took = time.perf_counter() - started
            refresh_text_statistics(http, name)
            external = external_ids(http, name)
            plain = run(http, name, queries, qrels, external, {})[0]
            context = run(http, name, queries, qrels, external, {"include": ["context"]})[0]
            answers, sources, items = answer_ndcg(http, name, queries, qrels, external)
            rows.append((name, plain, context, answers, sources, items, status, took))
            print(
                f"{name}: search {plain:.4f}, with context {context:.4f}, answer sources "
                f"{answers:.4f} ({sources:.1f} sources, {items:.1f} graph items per answer); "
                f"{status['entities']} entities, {status['relations']} relations; "
                f"ingested in {took:.0f} s",
                file=sys.stderr,
            )
    print(
        "| knowledge base | search nDCG@10 | search with context | answer sources nDCG@10 "
        "| sources per answer | graph items per answer |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for name, plain, context, answers, sources, items, _status, _took in rows:
        cells = [
            f"{plain:.4f}",
            f"{context:.4f}",
            f"{answers:.4f}",
            f"{sources:.1f}",
            f"{items:.1f}",
        ]
        print(f"| {name} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
