"""The adapter protocol: what a kind of knowledge source does, and the registry of kinds.

A kind lists its items with a version, fetches one item, and checks its health; the sync
(app/sources/sync.py) does the rest (what changed, the documents, runs, events) the same way
for every kind. Adding a kind (S3, a wiki) is one module here: a pydantic model of its fields,
a class with these methods, and a `register` call in `app/sources/adapters/__init__.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel

from app.config import Settings


@dataclass(frozen=True, slots=True)
class ItemRef:
    """An item as listed: its key in the source (a relative path, a URL) and its version
    (None when only a fetch can tell, e.g. an ETag)."""

    key: str
    version: str | None


@dataclass(frozen=True, slots=True)
class Known:
    """An item as the last sync stored it."""

    version: str | None
    content_sha256: str | None


@dataclass(frozen=True, slots=True)
class ItemContent:
    data: bytes
    version: str | None
    source_uri: str | None
    filename: str | None = None
    content_type: str | None = None
    format: str | None = None  # None: detected
    title: str | None = None
    # Upstream said it has not changed since `Known.version` (an HTTP 304): no data.
    not_modified: bool = False


@dataclass(frozen=True, slots=True)
class Health:
    ok: bool
    detail: str


class ItemError(Exception):
    """One item could not be read: recorded on the run, the others go on."""


class SourceUnavailable(Exception):
    """The source cannot be listed at all (a folder gone, no URL answers): the run fails."""


class Adapter(Protocol):
    kind: ClassVar[str]
    # Items arrive by push (`POST .../records`): a sync has nothing to list.
    pushed: ClassVar[bool]
    # The kind's own fields (stored as the source's `config`).
    config_model: ClassVar[type[BaseModel]]

    def check(self, config: dict[str, Any], settings: Settings) -> None:
        """Refuse a configuration this instance may not use (ValidationFailed)."""

    async def list_items(self, config: dict[str, Any], settings: Settings) -> list[ItemRef]:
        """Every item the source holds now (SourceUnavailable when it cannot say)."""

    async def fetch(
        self, config: dict[str, Any], settings: Settings, item: ItemRef, known: Known | None
    ) -> ItemContent:
        """The item's content (ItemError when this one cannot be read)."""

    async def health(self, config: dict[str, Any], settings: Settings) -> Health:
        """Whether the source can be synced now, and why not."""


_ADAPTERS: dict[str, Adapter] = {}


def register(adapter: Adapter) -> None:
    _ADAPTERS[adapter.kind] = adapter


def adapter_for(kind: str) -> Adapter:
    return _ADAPTERS[kind]


def kinds() -> list[str]:
    return sorted(_ADAPTERS)
