"""The app's chat client for request handlers (None when no LLM is configured)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.llm.base import ChatClient


def chat_client(request: Request) -> ChatClient | None:
    """`app.state.chat_client`, built once in the lifespan from the settings."""
    client: ChatClient | None = getattr(request.app.state, "chat_client", None)
    return client


ChatClientDep = Annotated[ChatClient | None, Depends(chat_client)]
