"""Client commands of `arbor`: knowledge bases, search, evaluation and the MCP stdio server.

Each talks to a running server over HTTP (app/terminal/api.py); `arbor serve` and friends in
app/cli.py run the server itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from app.terminal import ask, evaluate, ingest
from app.terminal.api import add_connection_flags, checked, client, connection, pages


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def kb_create(args: argparse.Namespace) -> None:
    body: dict[str, Any] = {"name": args.name}
    if args.title:
        body["title"] = args.title
    if args.description:
        body["description"] = args.description
    with client(args) as http:
        created = checked(http.post("/v1/knowledge-bases", json=body))
    if args.json:
        _print_json(created)
    else:
        print(f"created {created['name']} ({created['id']})")


def kb_list(args: argparse.Namespace) -> None:
    with client(args) as http:
        items = pages(http, "/v1/knowledge-bases")
    if args.json:
        _print_json(items)
        return
    table = Table("name", "id", "documents", "model", "description")
    for kb in items:
        embedding = kb.get("embedding") or {}
        table.add_row(
            kb["name"],
            kb["id"],
            str(kb.get("document_count", "")),
            str(embedding.get("model", "")),
            kb.get("description") or "",
        )
    Console().print(table)


def search(args: argparse.Namespace) -> None:
    body: dict[str, Any] = {
        "query": args.query,
        "knowledge_bases": args.kb,
        "top_k": args.top_k,
        "mode": args.mode,
    }
    if args.filter:
        body["filter"] = json.loads(args.filter)
    with client(args) as http:
        found = checked(http.post("/v1/search", json=body))
    if args.json:
        _print_json(found)
        return
    console = Console()
    for n, hit in enumerate(found["hits"], start=1):
        where = " > ".join([hit["doc_title"], *hit["section_titles"]])
        page = f" p. {hit['page_start']}" if hit.get("page_start") is not None else ""
        console.print(f"[bold][{n}] {where}{page}[/bold]  score {hit['score']:.3f}")
        console.print(hit["text"].strip(), markup=False, highlight=False)
        console.print()
    if not found["hits"]:
        console.print("no hits")


def mcp(args: argparse.Namespace) -> None:
    """The MCP server over stdio, its tools calling the server at ARBOR_URL with the key."""
    from app.mcp.stdio import serve_stdio

    url, headers = connection(args)
    asyncio.run(serve_stdio(url, headers))


def register(commands: Any) -> None:
    kb = commands.add_parser("kb", help="knowledge bases on a running server")
    kb_commands = kb.add_subparsers(dest="kb_command", required=True)
    create = kb_commands.add_parser("create", help="create a knowledge base")
    create.add_argument("name")
    create.add_argument("--title", default=None)
    create.add_argument("--description", default=None)
    create.set_defaults(handler=kb_create)
    listing = kb_commands.add_parser("list", help="list knowledge bases")
    listing.set_defaults(handler=kb_list)
    for sub in (create, listing):
        sub.add_argument("--json", action="store_true", help="print JSON")
        add_connection_flags(sub)

    searching = commands.add_parser("search", help="search knowledge bases")
    searching.add_argument("query")
    searching.add_argument("--kb", action="append", required=True, help="repeat for several")
    searching.add_argument("--top-k", type=int, default=5)
    searching.add_argument("--mode", choices=("hybrid", "vector", "text"), default="hybrid")
    searching.add_argument("--filter", default=None, help='JSON, e.g. {"metadata.year": 2024}')
    searching.add_argument("--json", action="store_true", help="print the response as JSON")
    add_connection_flags(searching)
    searching.set_defaults(handler=search)

    ingest.register(commands)
    ask.register(commands)
    evaluate.register(commands)

    serving = commands.add_parser(
        "mcp", help="serve the MCP tools over stdio (for desktop agents), as ARBOR_API_KEY"
    )
    add_connection_flags(serving)
    serving.set_defaults(handler=mcp)


def run(args: argparse.Namespace) -> None:
    import httpx

    try:
        args.handler(args)
    except httpx.TransportError as exc:
        url, _ = connection(args)
        raise SystemExit(f"arbor: cannot reach {url}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise SystemExit(f"arbor: not JSON: {exc}") from None
    sys.stdout.flush()
