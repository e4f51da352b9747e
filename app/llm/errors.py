"""The HTTP face of a chat model that is not there or keeps failing."""

from __future__ import annotations

from app.kit.errors import ServiceUnavailable, ValidationFailed


class LLMUnavailable(ServiceUnavailable):
    """An LLM was asked for explicitly and failed after retries: a retry later may succeed."""

    type_ = "llm-unavailable"
    title = "LLM unavailable"


class LLMNotConfigured(ValidationFailed):
    """An LLM was asked for explicitly on a server that has none: no retry will succeed, so
    the client must change the request (`generator: extractive` or `auto`), not wait."""

    type_ = "llm-not-configured"
    title = "No LLM configured"
