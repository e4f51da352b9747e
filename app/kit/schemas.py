"""The base of request bodies, so every one of them refuses the same things."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class RequestModel(BaseModel):
    """A request body: unknown fields are refused, and so are NaN and Infinity.

    Python's json module (FastAPI's parser) accepts NaN and Infinity, and a NaN threshold or
    weight compares false with everything: it silently drops every hit instead of failing.
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
