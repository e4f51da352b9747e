"""One nesting limit for JSON text, checked on the bytes before Python's json module parses it.

`json.loads` recurses once per `[` or `{`: about a thousand levels exhaust the interpreter's
stack, and the RecursionError became a 500 (and, raised while FastAPI read a body, a 400 that
no route declares). Bodies that pydantic parses from bytes (`read_json_model`: uploads,
`chunks/bulk`, `documents/batch`, imports, `/v1/parse`) go through jiter, which stops at its
own depth without recursing in Python; their free-form fields are then held to
`MAX_JSON_DEPTH` (app/kit/strings.py) like every stored JSON value.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from app.kit.errors import ValidationFailed

# Deeper than any request the schemas describe (a search filter with its operators, stored
# metadata at 32 levels inside a body), far below the interpreter's stack.
MAX_JSON_NESTING = 64

# A JSON string, escapes included: brackets inside strings do not nest.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_STEP = np.zeros(256, dtype=np.int8)
_STEP[[ord("["), ord("{")]] = 1
_STEP[[ord("]"), ord("}")]] = -1
_BLOCK = 1 << 20


def too_deep(data: bytes, limit: int = MAX_JSON_NESTING) -> bool:
    """Whether the arrays and objects of the JSON text `data` nest deeper than `limit`."""
    if data.count(b"[") + data.count(b"{") <= limit:
        return False  # the common case, without a scan
    steps = _STEP[np.frombuffer(_STRING.sub(b"", data), dtype=np.uint8)]
    deepest = level = 0
    # In blocks: a cumulative sum of the whole body would take eight bytes per byte.
    for start in range(0, len(steps), _BLOCK):
        levels = np.cumsum(steps[start : start + _BLOCK], dtype=np.int64) + level
        deepest = max(deepest, int(levels.max()))
        level = int(levels[-1])
    return deepest > limit


def nesting_problem(data: bytes) -> str | None:
    """Why `data` is not JSON text the service parses (too deep, not UTF-8), or None."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 (byte {exc.start} is invalid)"
    if too_deep(data):
        return f"nested deeper than {MAX_JSON_NESTING} levels"
    return None


def loads(text: str | bytes, *, what: str) -> Any:
    """`text` parsed as JSON, or a 422 naming `what` when it is not JSON the service parses."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    problem = nesting_problem(data)
    if problem is None:
        try:
            return json.loads(data)
        except json.JSONDecodeError as exc:
            problem = f"not JSON ({exc.msg} at character {exc.pos})"
    raise ValidationFailed(f"{what} cannot be read: it is {problem}.")
