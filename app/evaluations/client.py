"""`arbor eval`: post BEIR files to a running server's evaluations route and print the table."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import httpx


def run(
    *,
    url: str,
    knowledge_base: str,
    queries: Path,
    qrels: Path,
    configurations: str | None,
    name: str | None,
    poll_s: float = 1.0,
) -> dict[str, Any]:
    """Post the files, wait for the job, print each configuration's means; the evaluation."""
    key = os.environ.get("ARBOR_API_KEY")
    headers = {"authorization": f"Bearer {key}"} if key else {}
    with httpx.Client(base_url=url, headers=headers, timeout=600) as http:
        data = {
            field: value
            for field, value in (("configurations", configurations), ("name", name))
            if value
        }
        response = http.post(
            f"/v1/knowledge-bases/{knowledge_base}/evaluations",
            files={
                "queries": (queries.name, queries.read_bytes(), "application/jsonl"),
                "qrels": (qrels.name, qrels.read_bytes(), "text/tab-separated-values"),
            },
            data=data,
        )
        if response.status_code != 202:
            raise SystemExit(f"arbor eval: {response.status_code} {response.text}")
        location = f"/v1/knowledge-bases/{knowledge_base}/evaluations/{response.json()['id']}"
        while (evaluation := http.get(location).json())["status"] in ("queued", "running"):
            time.sleep(poll_s)
    if evaluation["status"] != "succeeded":
        raise SystemExit(f"arbor eval: the evaluation failed: {evaluation.get('error')}")
    results = evaluation["results"]
    out = sys.stdout
    out.write(f"evaluation {evaluation['id']}: {results['queries_evaluated']} queries\n")
    out.write(f"{'configuration':30s} nDCG@10  R@10    R@100   MRR@10  ms/query\n")
    for config in results["configurations"]:
        m = config["measures"]
        out.write(
            f"{config['name'][:30]:30s} {m['ndcg_at_10']:.4f}   {m['recall_at_10']:.4f}  "
            f"{m['recall_at_100']:.4f}  {m['mrr_at_10']:.4f}  {config['mean_latency_ms']:.1f}\n"
        )
    return dict(evaluation)


def main(args: Any) -> None:
    configurations = args.configurations
    if configurations is not None and Path(configurations).is_file():
        configurations = Path(configurations).read_text()
    if configurations is not None:
        json.loads(configurations)  # a typo fails here, before the upload
    run(
        url=args.url,
        knowledge_base=args.knowledge_base,
        queries=args.queries,
        qrels=args.qrels,
        configurations=configurations,
        name=args.name,
    )
