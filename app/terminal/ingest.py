"""`arbor ingest PATH... --kb NAME`: files and folders into a knowledge base, resumable.

Each file's external id is its path relative to the folder given (a file given by itself: its
name), so a second run names the same documents. A file whose document already holds the same
bytes (the server's `content_sha256`) is skipped without being sent: an interrupted run goes
on where it stopped, and a run over unchanged files uploads nothing. A changed file is sent
under its external id again, which makes it a new version of that document.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO, cast

import httpx
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)

from app.terminal.api import CliError, checked, client, pages
from app.tools.dispatch import segment

# What the server parses (docs/ingestion.md); anything else in a folder is left alone.
SUFFIXES = frozenset({".txt", ".md", ".markdown", ".pdf", ".docx", ".csv", ".html", ".htm"})
HASH_BLOCK = 1 << 20


@dataclass(frozen=True, slots=True)
class Source:
    path: Path
    external_id: str
    size: int


def sources(paths: list[Path]) -> list[Source]:
    """The files to ingest, in a stable order, each with its external id."""
    found: dict[str, Source] = {}
    for given in paths:
        if given.is_dir():
            for path in sorted(given.rglob("*")):
                if path.is_file() and path.suffix.lower() in SUFFIXES:
                    key = path.relative_to(given).as_posix()
                    found.setdefault(key, Source(path, key, path.stat().st_size))
        elif given.is_file():
            found.setdefault(given.name, Source(given, given.name, given.stat().st_size))
        else:
            raise CliError(f"no such file or folder: {given}")
    return list(found.values())


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while block := stream.read(HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def _progress(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description}", justify="left"),
        BarColumn(),
        TaskProgressColumn(),
        DownloadColumn(),
        TimeElapsedColumn(),
        console=console,
        # Quiet when not a terminal: no bars in logs and pipes, only the summary line.
        disable=not console.is_terminal,
    )


class _Counted:
    """A file whose reads advance progress bars (httpx reads an upload in 64 KiB blocks)."""

    def __init__(self, stream: BinaryIO, advance: Callable[[int], None]) -> None:
        self._stream = stream
        self._advance = advance

    def read(self, size: int = -1) -> bytes:
        block = self._stream.read(size)
        self._advance(len(block))
        return block

    def __getattr__(self, name: str) -> Any:
        # fileno, seek, tell: how httpx measures the body.
        return getattr(self._stream, name)


def _upload(
    http: httpx.Client,
    kb: str,
    source: Source,
    *,
    metadata: dict[str, Any] | None,
    wait: bool,
    advance: Callable[[int], None],
) -> dict[str, Any]:
    form = {"external_id": source.external_id}
    if metadata is not None:
        form["metadata"] = json.dumps(metadata)
    with source.path.open("rb") as stream:
        response = http.post(
            f"/v1/knowledge-bases/{segment(kb)}/documents",
            params={"wait": "true" if wait else "false"},
            data=form,
            # A file-like object to httpx; typed IO[bytes] there, which it reads as one.
            files={"file": (source.path.name, cast("IO[bytes]", _Counted(stream, advance)))},
        )
    body: dict[str, Any] = checked(response)
    return body


def run(args: argparse.Namespace) -> None:
    console = Console(stderr=True)
    metadata = json.loads(args.metadata) if args.metadata else None
    todo = sources([Path(path) for path in args.paths])
    with client(args, timeout_s=args.timeout) as http:
        stored = {
            doc["external_id"]: doc
            for doc in pages(http, f"/v1/knowledge-bases/{segment(args.kb)}/documents")
            if doc.get("external_id") is not None
        }
        uploaded = skipped = failed = 0
        with _progress(console) as progress:
            overall = progress.add_task("all files", total=sum(s.size for s in todo))
            for done, source in enumerate(todo):
                task = progress.add_task(source.external_id, total=source.size)
                held = stored.get(source.external_id)
                same = held is not None and held.get("content_sha256") == sha256_of(source.path)
                if same and held is not None and held.get("status") != "failed":
                    skipped += 1
                else:

                    def advance(sent: int, task: TaskID = task) -> None:
                        progress.advance(task, sent)
                        progress.advance(overall, sent)

                    document = _upload(
                        http, args.kb, source, metadata=metadata, wait=args.wait, advance=advance
                    )
                    if document.get("status") == "failed":
                        failed += 1
                        console.print(
                            f"[red]failed[/red] {source.external_id}: "
                            f"{document.get('error') or 'see the document'}"
                        )
                    uploaded += 1
                progress.update(task, visible=False)
                # Skipped files count as done; an upload counted its bytes as they went.
                progress.update(overall, completed=sum(s.size for s in todo[: done + 1]))
    print(
        f"{len(todo)} files: {uploaded} uploaded, {skipped} unchanged (skipped), {failed} failed",
        file=sys.stderr if args.json else sys.stdout,
    )
    if args.json:
        print(
            json.dumps(
                {"files": len(todo), "uploaded": uploaded, "skipped": skipped, "failed": failed}
            )
        )
    if failed:
        raise SystemExit(1)


def register(commands: Any) -> None:
    from app.terminal.api import add_connection_flags

    ingest = commands.add_parser(
        "ingest", help="upload files and folders into a knowledge base (resumable)"
    )
    ingest.add_argument("paths", nargs="+", help="files and folders")
    ingest.add_argument("--kb", required=True, help="knowledge base name or id")
    ingest.add_argument("--metadata", default=None, help="JSON object stored on each document")
    ingest.add_argument(
        "--no-wait",
        dest="wait",
        action="store_false",
        help="return once uploaded, without waiting for ingestion",
    )
    ingest.add_argument("--timeout", type=float, default=600.0, help="per file, seconds")
    ingest.add_argument("--json", action="store_true", help="print the counts as JSON")
    add_connection_flags(ingest)
    ingest.set_defaults(handler=run)
