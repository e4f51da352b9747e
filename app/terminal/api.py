"""The CLI's connection to a running Arbor server: URL and key from flags or the environment.

These are a client's settings, not the server's: `ARBOR_URL` (default http://127.0.0.1:8000),
`ARBOR_API_KEY`, and for gateway keys `ARBOR_PRINCIPALS`; `ARBOR_PROJECT` for instance admins.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

import httpx

DEFAULT_URL = "http://127.0.0.1:8000"


class CliError(SystemExit):
    """A failed request, said in one line (the problem's detail), exit status 1."""

    def __init__(self, message: str) -> None:
        super().__init__(f"arbor: {message}")


def add_connection_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--url", default=None, help=f"Arbor server (env ARBOR_URL, default {DEFAULT_URL})"
    )
    parser.add_argument("--key", default=None, help="API key (env ARBOR_API_KEY)")
    parser.add_argument(
        "--principals", default=None, help="delegated principals (env ARBOR_PRINCIPALS)"
    )
    parser.add_argument("--project", default=None, help="project (env ARBOR_PROJECT)")


def connection(args: argparse.Namespace) -> tuple[str, dict[str, str]]:
    """The base URL and headers that flags, else the environment, give."""
    url = args.url or os.environ.get("ARBOR_URL") or DEFAULT_URL
    key = args.key or os.environ.get("ARBOR_API_KEY")
    principals = args.principals or os.environ.get("ARBOR_PRINCIPALS")
    project = args.project or os.environ.get("ARBOR_PROJECT")
    headers: dict[str, str] = {}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    if principals:
        headers["X-Arbor-Principals"] = principals
    if project:
        headers["X-Arbor-Project"] = project
    return url.rstrip("/"), headers


def client(args: argparse.Namespace, *, timeout_s: float = 120.0) -> httpx.Client:
    url, headers = connection(args)
    return httpx.Client(base_url=url, headers=headers, timeout=timeout_s)


def checked(response: httpx.Response) -> Any:
    """The JSON body of a success; a CliError with the problem's detail otherwise."""
    if response.status_code >= 400:
        try:
            problem = response.json()
            detail = problem.get("detail") or problem.get("title")
        except ValueError:
            detail = response.text[:200]
        raise CliError(
            f"{response.request.method} {response.request.url.path}: "
            f"{response.status_code} {detail}"
        )
    return response.json() if response.content else None


def pages(http: httpx.Client, path: str, **params: Any) -> list[dict[str, Any]]:
    """Every item of a paged listing."""
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        query = {"limit": 200, **params, **({"cursor": cursor} if cursor else {})}
        page = checked(http.get(path, params=query))
        items.extend(page["items"])
        cursor = page.get("next_cursor")
        if not cursor:
            return items
