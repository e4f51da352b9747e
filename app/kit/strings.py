"""Text Postgres can store: no NUL characters and no lone UTF-16 surrogates.

Postgres `text` cannot hold U+0000 and `jsonb` refuses its escape; a lone surrogate (JSON
"\\ud800", which Python's json module accepts) is not UTF-8 at all. Either reaching a query
fails in the database, so request fields are checked here first and answered with a 422.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

_SURROGATE = re.compile("[\ud800-\udfff]")


def unstorable(text: str) -> str | None:
    """Why `text` cannot be stored, or None when it can."""
    if "\x00" in text:
        return "contains a NUL character (\\u0000)"
    # isascii() reads a flag of the string: bulk loads of plain text skip the scan.
    if not text.isascii() and _SURROGATE.search(text) is not None:
        return "contains a lone UTF-16 surrogate"
    return None


def check_text(value: str) -> str:
    """A pydantic validator: `value` unchanged, or an error saying why it cannot be stored."""
    reason = unstorable(value)
    if reason is not None:
        raise PydanticCustomError("text_unstorable", f"Text {reason}")
    return value


# Nesting a JSON field may have. Deeper values were stored, and then every read that turned
# them back into JSON (the event feed, for one) failed past pydantic's recursion limit.
MAX_JSON_DEPTH = 32


def json_problem(value: Any, path: str = "", depth: int = 0) -> str | None:
    """Why a parsed JSON value cannot be stored as jsonb (keys included), or None."""
    where = f" at {path}" if path else ""
    if depth > MAX_JSON_DEPTH:
        return f"the value{where} is nested deeper than {MAX_JSON_DEPTH} levels"
    if isinstance(value, str):
        reason = unstorable(value)
        return f"the value{where} {reason}" if reason else None
    if isinstance(value, float) and not math.isfinite(value):
        return f"the value{where} is {value}: JSON numbers are finite"
    if isinstance(value, Mapping):
        for key, item in value.items():
            reason = unstorable(str(key))
            if reason is not None:
                return f"a key{where} {reason}"
            found = json_problem(item, f"{path}.{key}" if path else str(key), depth + 1)
            if found is not None:
                return found
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = json_problem(item, f"{path}[{index}]", depth + 1)
            if found is not None:
                return found
    return None


def check_json(value: Any) -> Any:
    """A pydantic validator for JSON fields: keys and strings storable, numbers finite."""
    reason = json_problem(value)
    if reason is not None:
        raise PydanticCustomError("json_unstorable", reason[0].upper() + reason[1:])
    return value


StoredText = Annotated[str, AfterValidator(check_text)]
"""A string field that goes to the database."""

JsonObject = Annotated[dict[str, Any], AfterValidator(check_json)]
"""A JSON object field that goes to the database as jsonb."""

# A document's metadata is copied into each of its chunks and into its events: bounded, so that
# one request cannot multiply megabytes (Pinecone's limit per vector is 40 KB).
MAX_METADATA_BYTES = 65_536


def check_metadata(value: dict[str, Any]) -> dict[str, Any]:
    """A pydantic validator for metadata: storable JSON of at most MAX_METADATA_BYTES."""
    if not value:
        return value  # most chunks of a bulk load
    check_json(value)
    size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
    if size > MAX_METADATA_BYTES:
        raise PydanticCustomError(
            "metadata_too_large",
            f"Metadata is {size} bytes as JSON; at most {MAX_METADATA_BYTES} are kept",
        )
    return value


Metadata = Annotated[dict[str, Any], AfterValidator(check_metadata)]
"""Metadata of a document or chunk: a JsonObject of at most MAX_METADATA_BYTES."""
