"""References in paths: a resource named by its id or by a name (or external id)."""

from __future__ import annotations

import uuid


def as_id(ref: str) -> uuid.UUID | None:
    """The id a reference spells, or None when it can only be a name."""
    try:
        return uuid.UUID(ref)
    except ValueError:
        return None
