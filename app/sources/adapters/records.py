"""`records`: a system pushes its records (`POST .../sources/{source}/records`); each record is
one document. There is nothing to list or fetch: the push is the sync."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel

from app.config import Settings
from app.kit.schemas import RequestModel
from app.sources.adapters.base import Health, ItemContent, ItemError, ItemRef, Known


class RecordsConfig(RequestModel):
    """No fields: records carry everything."""


class RecordsAdapter:
    kind: ClassVar[str] = "records"
    pushed: ClassVar[bool] = True
    config_model: ClassVar[type[BaseModel]] = RecordsConfig

    def check(self, config: dict[str, Any], settings: Settings) -> None:
        return None

    async def list_items(self, config: dict[str, Any], settings: Settings) -> list[ItemRef]:
        return []

    async def fetch(
        self, config: dict[str, Any], settings: Settings, item: ItemRef, known: Known | None
    ) -> ItemContent:
        raise ItemError("records are pushed, not fetched")

    async def health(self, config: dict[str, Any], settings: Settings) -> Health:
        return Health(ok=True, detail="Records are pushed; there is nothing to reach.")
