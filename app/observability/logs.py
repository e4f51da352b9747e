"""Log lines: plain text or one JSON object per line, each with the request id and trace id.

The request id lives in a context variable set by the request middleware, so every line a
request causes carries it, whichever module logs. Arbor's own lines never hold document text
or keys; the JSON formatter writes only the message and these fields, never the arguments
apart from the message.
"""

from __future__ import annotations

import contextvars
import json
import logging
import logging.config
import re
from datetime import UTC, datetime
from typing import Any, Literal

from app.observability import tracing

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "arbor_request_id", default=None
)

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"


class ContextFilter(logging.Filter):
    """Adds `request_id`, `trace_id` and `span_id` to every record (`-` when none)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get() or "-"
        ids = tracing.current_ids()
        record.trace_id, record.span_id = ids if ids is not None else ("-", "-")
        return True


# An API key's secret part: what follows its public `arb_` + 12-character id.
KEY_SECRET = re.compile(r"\b(arb_[a-z0-9]{12})[A-Za-z0-9_-]{20,}")


def redact(text: str) -> str:
    """API keys cut to their public prefix (which names the key, and is stored in clear)."""
    return KEY_SECRET.sub(r"\1...", text)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request and trace ids.

    Shipped logs outlive the process and reach more readers than its console: a key in a
    message (the generated first admin key, announced once) is cut to its public prefix; the
    whole key is in ARBOR_ADMIN_KEY_FILE."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        for field in ("request_id", "trace_id", "span_id"):
            value = getattr(record, field, "-")
            if value != "-":
                entry[field] = value
        if record.exc_info:
            entry["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False, default=str)


def dict_config(*, level: str, fmt: Literal["text", "json"]) -> dict[str, Any]:
    """A logging.config.dictConfig for `arbor` commands, also handed to uvicorn (`log_config`)
    so that its own lines, and those of its spawned HTTP processes, come out the same way."""
    formatter: dict[str, Any] = (
        {"()": "app.observability.logs.JsonFormatter"} if fmt == "json" else {"format": TEXT_FORMAT}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "app.observability.logs.ContextFilter"}},
        "formatters": {"arbor": formatter},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "arbor",
                "filters": ["context"],
            }
        },
        "root": {"handlers": ["stderr"], "level": level.upper()},
        "loggers": {
            name: {"handlers": [], "propagate": True}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }


def configure(*, level: str, fmt: Literal["text", "json"]) -> None:
    logging.config.dictConfig(dict_config(level=level, fmt=fmt))
