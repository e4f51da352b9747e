"""An async client for any OpenAI-compatible `/chat/completions` endpoint (OpenAI, Ollama,
vLLM, llama.cpp server, LiteLLM): JSON or streamed SSE, bounded retries, prompt cancellation."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import aclosing
from types import TracebackType
from typing import Any, Self

import httpx

from app.embeddings.openai import is_transient_status, parse_retry_after
from app.kit.tls import client_tls_context
from app.llm.base import ChatMessage, ChatResult, LLMError, TokenUsage
from app.observability.metrics import record_llm_call

# The `provider` label of the LLM metrics: every server this client speaks to.
PROVIDER = "openai-compatible"

logger = logging.getLogger(__name__)


def _error_detail(body: bytes) -> str:
    """The server's error message if it sent the OpenAI error shape, else the body's start."""
    try:
        parsed = json.loads(body)
        message = parsed["error"]["message"] if isinstance(parsed.get("error"), dict) else parsed
    except (ValueError, KeyError, TypeError, AttributeError):
        message = body.decode("utf-8", "replace")
    return str(message)[:300]


def _usage(raw: object) -> TokenUsage | None:
    if not isinstance(raw, dict):
        return None
    try:
        return TokenUsage(
            prompt_tokens=int(raw.get("prompt_tokens") or 0),
            completion_tokens=int(raw.get("completion_tokens") or 0),
        )
    except (TypeError, ValueError):
        return None


def _outcome(exc: BaseException) -> str:
    """The `outcome` label of a call that raised: given up on by its caller, or failed."""
    if isinstance(exc, asyncio.CancelledError | GeneratorExit):
        return "cancelled"
    return "error"


class OpenAICompatibleChatClient:
    """POSTs to `{base_url}/chat/completions`. Failures before the first byte of an answer
    (connection refused, timeouts, 429, 5xx) back off and retry, honouring Retry-After; a
    stream that breaks after text was delivered is not retried (the text cannot be taken back)."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        model: str,
        *,
        max_tokens: int = 4096,
        temperature: float = 0.3,
        timeout_s: float = 60.0,
        connect_timeout_s: float = 10.0,
        max_retries: int = 3,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 8.0,
        max_retry_after_s: float = 30.0,
        stream_usage: bool = True,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if max_retries < 0 or max_tokens < 1:
            raise ValueError("max_retries must be >= 0 and max_tokens >= 1")
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.max_retries = max_retries
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.max_retry_after_s = max_retry_after_s
        self.stream_usage = stream_usage
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        # The read timeout bounds the gap between two chunks, not the whole answer: a long
        # streamed answer is fine as long as the server keeps sending.
        self._client = httpx.AsyncClient(
            base_url=base_url.rstrip("/") + "/",
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=connect_timeout_s),
            transport=transport,
            verify=client_tls_context(),
        )

    async def aclose(self) -> None:
        """Close pooled connections."""
        await self._client.aclose()

    def _body(
        self,
        messages: Sequence[ChatMessage],
        *,
        stream: bool,
        json_mode: bool = False,
        max_tokens: int | None,
        temperature: float | None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
            "temperature": self.temperature if temperature is None else temperature,
            "max_tokens": max_tokens or self.max_tokens,
            "stream": stream,
        }
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        if stream and self.stream_usage:
            body["stream_options"] = {"include_usage": True}
        return body

    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        json_mode: bool = False,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> ChatResult:
        """One whole completion (`json_mode` asks for a JSON object as the answer)."""
        body = self._body(
            messages,
            stream=False,
            json_mode=json_mode,
            max_tokens=max_tokens,
            temperature=temperature,
        )
        started = time.perf_counter()
        try:
            result = await self._complete(body)
        except BaseException as exc:
            self._record(started, outcome=_outcome(exc))
            raise
        self._record(started, outcome="ok", usage=result.usage)
        return result

    def _record(self, started: float, *, outcome: str, usage: TokenUsage | None = None) -> None:
        """One call in the LLM metrics: the configured model (a bounded label), no user text."""
        record_llm_call(
            provider=PROVIDER,
            model=self.model,
            seconds=time.perf_counter() - started,
            input_tokens=usage.prompt_tokens if usage else 0,
            output_tokens=usage.completion_tokens if usage else 0,
            outcome=outcome,
        )

    async def _complete(self, body: dict[str, Any]) -> ChatResult:
        response = await self._open(body)
        try:
            raw = await response.aread()
        except httpx.HTTPError as exc:
            raise LLMError(
                f"chat API answer broke off ({type(exc).__name__})", transient=True
            ) from None
        finally:
            await response.aclose()
        try:
            payload = json.loads(raw)
            choice = payload["choices"][0]
            text = choice["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise LLMError(
                f"chat API answered without a usable message ({exc!r})", transient=False
            ) from None
        return ChatResult(
            text=str(text),
            model=str(payload.get("model") or self.model),
            usage=_usage(payload.get("usage")) or TokenUsage(),
            finish_reason=choice.get("finish_reason"),
        )

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> OpenAIChatStream:
        """Text deltas as the server sends them; nothing is requested until iteration starts."""
        body = self._body(messages, stream=True, max_tokens=max_tokens, temperature=temperature)
        return OpenAIChatStream(self, body)

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with jitter, so concurrent requests do not retry in lockstep."""
        ceiling = min(self.backoff_max_s, self.backoff_base_s * 2.0**attempt)
        return ceiling * random.uniform(0.5, 1.0)

    async def _open(self, body: dict[str, Any]) -> httpx.Response:
        """A 200 response with its body still unread, after retries; LLMError otherwise."""
        attempts = self.max_retries + 1
        problem = "no attempt made"
        for attempt in range(attempts):
            request = self._client.build_request("POST", "chat/completions", json=body)
            try:
                response = await self._client.send(request, stream=True)
            except httpx.TimeoutException as exc:
                problem, delay = f"timed out ({type(exc).__name__})", self._backoff(attempt)
            except httpx.TransportError as exc:
                problem, delay = f"connection failed ({type(exc).__name__})", self._backoff(attempt)
            else:
                if response.status_code == 200:
                    return response
                try:
                    detail = _error_detail(await response.aread())
                except httpx.HTTPError:
                    detail = "(body unreadable)"
                finally:
                    await response.aclose()
                problem = f"HTTP {response.status_code}: {detail}"
                if not is_transient_status(response.status_code):
                    raise LLMError(f"chat API rejected the request ({problem})", transient=False)
                retry_after = parse_retry_after(response.headers.get("retry-after"))
                if retry_after is not None and retry_after > self.max_retry_after_s:
                    raise LLMError(
                        f"chat API asked to wait {retry_after:.0f} s ({problem})", transient=True
                    )
                delay = retry_after if retry_after is not None else self._backoff(attempt)
            if attempt + 1 < attempts:
                logger.warning(
                    "chat request %s; retry %d/%d in %.2f s",
                    problem,
                    attempt + 1,
                    self.max_retries,
                    delay,
                )
                await asyncio.sleep(delay)
        raise LLMError(
            f"chat API still failing after {attempts} attempts: {problem}", transient=True
        )


class OpenAIChatStream:
    """One streamed completion: iterate for deltas; `usage`/`finish_reason` once exhausted."""

    def __init__(self, client: OpenAICompatibleChatClient, body: dict[str, Any]) -> None:
        self.usage = TokenUsage()
        self.finish_reason: str | None = None
        self._client = client
        self._body = body
        self._deltas = self._run()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._deltas

    async def aclose(self) -> None:
        """Stop early: closes the HTTP response, which tells the server to stop generating."""
        await self._deltas.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _run(self) -> AsyncGenerator[str, None]:
        # Timed from the first iteration (when the request goes out) to the stream's end,
        # however it ends: a stream closed before it was iterated made no call.
        started = time.perf_counter()
        deltas = self._deltas_of_response()
        try:
            # aclosing: closing this generator closes the inner one now (its `finally` closes
            # the response), not whenever it is collected.
            async with aclosing(deltas):
                async for delta in deltas:
                    yield delta
        except BaseException as exc:
            self._client._record(started, outcome=_outcome(exc), usage=self.usage)
            raise
        self._client._record(started, outcome="ok", usage=self.usage)

    async def _deltas_of_response(self) -> AsyncGenerator[str, None]:
        response = await self._client._open(self._body)
        # Closing the response in `finally` is what cancels upstream: it runs on exhaustion,
        # on aclose() and when the consuming task is cancelled mid-read.
        done = False
        try:
            async for line in response.aiter_lines():
                if not line.startswith("data:"):
                    continue  # SSE comments (keep-alives), event names, blank separators
                data = line[5:].strip()
                if data == "[DONE]":
                    done = True
                    break
                try:
                    chunk = json.loads(data)
                except ValueError:
                    raise LLMError(
                        "chat API streamed a chunk that is not JSON", transient=False
                    ) from None
                if not isinstance(chunk, dict):
                    continue
                if "error" in chunk:
                    raise LLMError(
                        f"chat API stream failed: {chunk['error']!s:.300}", transient=True
                    )
                usage = _usage(chunk.get("usage"))
                if usage is not None:
                    self.usage = usage
                for choice in chunk.get("choices") or []:
                    delta = (choice.get("delta") or {}).get("content")
                    if delta:
                        yield str(delta)
                    if choice.get("finish_reason"):
                        self.finish_reason = str(choice["finish_reason"])
            if not done and self.finish_reason is None:
                # A server that dies mid-answer on a connection-delimited response looks
                # like a normal end of the body; only the missing terminator tells.
                raise LLMError("chat API stream ended before the answer did", transient=True)
        except httpx.TimeoutException:
            raise LLMError("chat API stream stalled (read timeout)", transient=True) from None
        except httpx.TransportError as exc:
            raise LLMError(
                f"chat API stream broke off ({type(exc).__name__})", transient=True
            ) from None
        finally:
            await response.aclose()
