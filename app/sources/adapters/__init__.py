"""The kinds of knowledge source, registered by name (docs/sources.md, "Adding a kind")."""

from app.sources.adapters.base import adapter_for, kinds, register
from app.sources.adapters.folder import FolderAdapter
from app.sources.adapters.http import HttpAdapter
from app.sources.adapters.records import RecordsAdapter

register(FolderAdapter())
register(HttpAdapter())
register(RecordsAdapter())

__all__ = ["adapter_for", "kinds", "register"]
