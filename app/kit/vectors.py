"""Checks for vectors clients supply: what pgvector stores (float32) and cosine can compare."""

from __future__ import annotations

import base64
from collections.abc import Sequence

import numpy as np
from pydantic.config import JsonDict

FLOAT32_MAX = float(np.finfo(np.float32).max)


def as_float32(values: Sequence[float]) -> np.ndarray:
    """`values` as float32; a magnitude beyond float32's range (3.4e38) becomes infinite."""
    with np.errstate(over="ignore"):
        return np.asarray(values, dtype=np.float32)


def vector_problem(values: np.ndarray) -> str | None:
    """Why a float32 vector cannot be stored and searched by cosine, or None when it can."""
    if not np.isfinite(values).all():
        return "contains NaN or infinite components (float32 holds magnitudes up to 3.4e38)"
    if not values.any():
        # Cosine divides by the norm: every similarity to it would be undefined (null).
        return "is all zeros, and cosine similarity to a zero vector is undefined"
    return None


def storable_vector_schema(schema: JsonDict) -> None:
    """A vector field's `json_schema_extra`: its array branch says in the spec what
    `vector_problem` checks (components within float32's range, not every one zero), so that
    a generated client can tell a vector the API will refuse."""
    branches = schema.get("anyOf", [schema])
    assert isinstance(branches, list)
    for branch in branches:
        if isinstance(branch, dict) and branch.get("type") == "array":
            branch["items"] = {"type": "number", "minimum": -FLOAT32_MAX, "maximum": FLOAT32_MAX}
            branch["contains"] = {"not": {"const": 0}}


def vector_base64(values: Sequence[float] | np.ndarray) -> str:
    """The vector as base64 of its little-endian float32 bytes, the form vectors may be sent in
    (OpenAI's `encoding_format: "base64"`)."""
    return base64.b64encode(np.asarray(values, dtype="<f4").tobytes()).decode()


def unit_vector(values: Sequence[float]) -> list[float]:
    """`values` scaled to length 1, computed in float64 (any finite, non-zero input)."""
    array = np.asarray(values, dtype=np.float64)
    scale = np.abs(array).max()
    scaled = array / scale  # first, so that squaring tiny components cannot underflow
    unit: list[float] = (scaled / np.linalg.norm(scaled)).tolist()
    return unit
