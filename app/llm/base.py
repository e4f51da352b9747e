"""The chat-provider protocol: what answers, query analysis and graph extraction call."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypedDict, runtime_checkable

Role = Literal["system", "user", "assistant"]


class ChatMessage(TypedDict):
    """One turn of a chat, in the OpenAI wire shape."""

    role: Role
    content: str


@dataclass(slots=True)
class TokenUsage:
    """Tokens the provider counted (zero where it did not say)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: TokenUsage) -> None:
        """Accumulate another call's usage into this one."""
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens


@dataclass(slots=True)
class ChatResult:
    """A whole completion."""

    text: str
    model: str
    usage: TokenUsage = field(default_factory=TokenUsage)
    finish_reason: str | None = None


class LLMError(Exception):
    """The chat endpoint failed; `transient` when retrying later may succeed."""

    def __init__(self, message: str, *, transient: bool) -> None:
        super().__init__(message)
        self.transient = transient


class ChatStream(Protocol):
    """Text deltas as they arrive; `usage` and `finish_reason` are set once it is exhausted.

    Closing it early (`aclose`, or the consuming task being cancelled) closes the upstream
    HTTP request, so the provider stops generating."""

    usage: TokenUsage
    finish_reason: str | None

    def __aiter__(self) -> AsyncIterator[str]: ...

    async def aclose(self) -> None: ...


@runtime_checkable
class ChatClient(Protocol):
    """Anything that completes chats: the OpenAI-compatible client, or a test double."""

    model: str
    max_tokens: int

    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        json_mode: bool = False,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> ChatResult: ...

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> ChatStream: ...

    async def aclose(self) -> None: ...
