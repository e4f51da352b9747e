"""A source as a sync reads it once, so that no session is held while items are fetched."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from app.models import Source


@dataclass(frozen=True, slots=True)
class SourceView:
    """What a sync needs of a source, read once (no session is held while fetching)."""

    id: uuid.UUID
    project_id: uuid.UUID
    knowledge_base_id: uuid.UUID
    name: str
    kind: str
    config: dict[str, Any]
    access: dict[str, Any] | None
    metadata: dict[str, Any]

    @classmethod
    def of(cls, source: Source) -> SourceView:
        return cls(
            id=source.id,
            project_id=source.project_id,
            knowledge_base_id=source.knowledge_base_id,
            name=source.name,
            kind=source.kind,
            config=dict(source.config),
            access=source.access,
            metadata=dict(source.metadata_),
        )
