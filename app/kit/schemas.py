"""The base of request bodies, so every one of them refuses the same things."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict
from pydantic.config import JsonDict


class RequestModel(BaseModel):
    """A request body: unknown fields are refused, and so are NaN and Infinity.

    Python's json module (FastAPI's parser) accepts NaN and Infinity, and a NaN threshold or
    weight compares false with everything: it silently drops every hit instead of failing.
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


# Below this a weight or threshold means nothing for scores made of a few factors in [0, 1],
# and in SQL it is harmful: Postgres raises "value out of range: underflow" when a float8
# product rounds to zero (vector_weight 5e-324 in `w / (60 + rank)`).
SQL_FLOAT_EPSILON = 1e-30


def _sql_safe(value: float) -> float:
    return 0.0 if abs(value) < SQL_FLOAT_EPSILON else value


SqlFloat = Annotated[float, AfterValidator(_sql_safe)]
"""A float that goes into SQL arithmetic: magnitudes below 1e-30 are read as 0."""


# What a body must hold beyond its fields' own types, said in its JSON Schema too, so that a
# client generated from the spec (and the API fuzzer) can tell a valid body before sending it.
NON_BLANK: JsonDict = {"type": "string", "pattern": r"\S"}
"""A string with a character other than whitespace."""


def sent(field: str, schema: JsonDict, **others: JsonDict) -> JsonDict:
    """A JSON Schema branch: `field` is present and matches `schema` (so it is not null), and
    each of `others`, where present, matches its own."""
    return {"required": [field], "properties": {field: schema, **others}}
