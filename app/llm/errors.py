"""The HTTP face of a chat model that is not there or keeps failing."""

from __future__ import annotations

from app.kit.errors import ServiceUnavailable


class LLMUnavailable(ServiceUnavailable):
    """An LLM was asked for explicitly, and none is configured or it failed after retries."""

    type_ = "llm-unavailable"
    title = "LLM unavailable"
