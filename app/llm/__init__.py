"""Chat models behind one small protocol: `get_chat_client(settings)` and `ChatClient`."""

from __future__ import annotations

import logging
import os

from app.config import Settings
from app.llm.base import ChatClient, ChatMessage, ChatResult, ChatStream, LLMError, TokenUsage
from app.llm.openai import OpenAICompatibleChatClient
from app.llm.tokens import estimate_tokens

logger = logging.getLogger(__name__)

__all__ = [
    "ChatClient",
    "ChatMessage",
    "ChatResult",
    "ChatStream",
    "LLMError",
    "OpenAICompatibleChatClient",
    "TokenUsage",
    "estimate_tokens",
    "get_chat_client",
]


def get_chat_client(settings: Settings) -> ChatClient | None:
    """The configured chat model, or None when `ARBOR_LLM_BASE_URL` is unset.

    The caller owns the client (`await client.aclose()`); the app keeps one in
    `app.state.chat_client` for request handlers (`app.llm.dependencies`)."""
    if not settings.llm_base_url:
        return None
    if not settings.llm_model:
        raise ValueError("ARBOR_LLM_MODEL must name a model when ARBOR_LLM_BASE_URL is set")
    api_key: str | None = None
    if settings.llm_api_key_env:
        api_key = os.environ.get(settings.llm_api_key_env) or None
        if api_key is None:
            logger.warning(
                "ARBOR_LLM_API_KEY_ENV names %s, which is unset: calling the LLM without a key",
                settings.llm_api_key_env,
            )
    return OpenAICompatibleChatClient(
        settings.llm_base_url,
        api_key,
        settings.llm_model,
        max_tokens=settings.llm_max_tokens,
        temperature=settings.llm_temperature,
        timeout_s=settings.llm_timeout_s,
        connect_timeout_s=settings.llm_connect_timeout_s,
        max_retries=settings.llm_max_retries,
        max_retry_after_s=settings.llm_max_retry_after_s,
        stream_usage=settings.llm_stream_usage,
    )
