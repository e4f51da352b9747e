"""`arbor ask QUESTION --kb NAME`: the answer streamed as it is written, then its citations."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

import httpx
from rich.console import Console

from app.terminal.api import CliError, add_connection_flags, checked, client


def sse_events(response: httpx.Response) -> Iterator[tuple[str, Any]]:
    """`(event, data)` pairs of a text/event-stream; comment lines (keep-alives) skipped."""
    name, data = "message", list[str]()
    for line in response.iter_lines():
        if not line:
            if data:
                yield name, json.loads("\n".join(data))
            name, data = "message", list[str]()
        elif line.startswith(":"):
            continue
        elif line.startswith("event:"):
            name = line[len("event:") :].strip()
        elif line.startswith("data:"):
            data.append(line[len("data:") :].strip())


def _cite(citation: dict[str, Any]) -> str:
    where = " > ".join(p for p in (citation["doc_title"], *citation["section_titles"]) if p)
    if citation.get("page_start") is not None:
        where += f" (p. {citation['page_start']})"
    return f"[{citation['n']}] {where}"


def run(args: argparse.Namespace) -> None:
    body: dict[str, Any] = {
        "query": args.question,
        "knowledge_bases": args.kb,
        "top_k": args.top_k,
        "stream": not args.json,
    }
    if args.filter:
        body["filter"] = json.loads(args.filter)
    with client(args, timeout_s=args.timeout) as http:
        if args.json:
            print(json.dumps(checked(http.post("/v1/answer", json=body)), indent=2))
            return
        done: dict[str, Any] | None = None
        with http.stream("POST", "/v1/answer", json=body) as response:
            if response.status_code >= 400:
                response.read()
                checked(response)
            for event, data in sse_events(response):
                if event == "delta":
                    sys.stdout.write(data["text"])
                    sys.stdout.flush()
                elif event == "done":
                    done = data
                elif event == "error":
                    raise CliError(str(data.get("detail") or data.get("title")))
    if done is None:
        raise CliError("the answer stream ended without its `done` event")
    console = Console()
    console.print()
    if done["citations"]:
        console.print()
        for citation in done["citations"]:
            console.print(_cite(citation), markup=False, highlight=False)
    for warning in done.get("warnings", []):
        console.print(f"note: {warning}", markup=False, style="dim")


def register(commands: Any) -> None:
    asking = commands.add_parser("ask", help="answer a question from knowledge bases (streamed)")
    asking.add_argument("question")
    asking.add_argument("--kb", action="append", required=True, help="repeat for several")
    asking.add_argument("--top-k", type=int, default=8)
    asking.add_argument("--filter", default=None, help="JSON filter, as for search")
    asking.add_argument("--timeout", type=float, default=300.0)
    asking.add_argument("--json", action="store_true", help="the whole answer as JSON at once")
    add_connection_flags(asking)
    asking.set_defaults(handler=run)
