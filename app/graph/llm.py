"""The `llm` extractor: an OpenAI-compatible chat model reads chunks and answers JSON.

The extractor needs only `ChatClient` below, the shape of `app.llm`'s client (the one the
answers flow uses), and the worker pool passes a factory for one (None when no model is
configured). Chunks go in batches (one prompt, one JSON object per chunk), a few batches at
once; an answer that is not the JSON asked for is asked again once, then the batch's chunks are
recorded with a warning and contribute nothing: a document never fails for its model's output.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from typing import Literal, Protocol, TypedDict

from pydantic import BaseModel, Field, ValidationError

from app.graph.extraction import (
    MAX_DESCRIPTION,
    MAX_FACT,
    MAX_NAME,
    MAX_TYPE,
    ChunkExtraction,
    ChunkInput,
    ExtractedEntity,
    ExtractedRelation,
    ExtractionResult,
    TokenUsage,
    clip,
    relation_type,
)

BATCH_SIZE = 8
CONCURRENCY = 4
MAX_TOKENS = 2048

SYSTEM_PROMPT = (
    "You extract a knowledge graph from text. For each numbered chunk, list the entities it "
    "names (people, organisations, places, products, concepts), each with a short type in "
    "capitals and a one-sentence description from the text, and the relations between them, "
    "each with a verb-like type in lower snake case and the sentence that states it as fact. "
    'Answer only JSON: {"chunks": [{"index": 0, "entities": [{"name": "", "type": "", '
    '"description": ""}], "relations": [{"source": "", "target": "", "type": "", '
    '"fact": ""}]}]}'
)


class ChatMessage(TypedDict):
    role: Literal["system", "user", "assistant"]
    content: str


class Usage(Protocol):
    @property
    def prompt_tokens(self) -> int: ...

    @property
    def completion_tokens(self) -> int: ...


class ChatReply(Protocol):
    @property
    def text(self) -> str: ...

    @property
    def usage(self) -> Usage: ...


class ChatClient(Protocol):
    """What the extractor needs of a chat model: one completion in JSON mode. The shape of
    `app.llm.ChatClient.complete`, so that client serves as it is."""

    async def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        json_mode: bool = False,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> ChatReply: ...


ChatClientFactory = Callable[[], ChatClient | None]


def no_chat_client() -> ChatClient | None:
    return None


class _Entity(BaseModel):
    name: str = Field(min_length=1)
    type: str = Field(default="CONCEPT", min_length=1)
    description: str = ""


class _Relation(BaseModel):
    source: str = Field(min_length=1)
    target: str = Field(min_length=1)
    type: str = "related_to"
    fact: str = Field(min_length=1)


class _Chunk(BaseModel):
    index: int
    entities: list[_Entity] = Field(default_factory=list)
    relations: list[_Relation] = Field(default_factory=list)


class _Answer(BaseModel):
    chunks: list[_Chunk]


def parse_answer(raw: str, count: int) -> dict[int, _Chunk]:
    """The answer's chunks by index; ValueError when it is not the JSON asked for."""
    try:
        answer = _Answer.model_validate(json.loads(raw))
    except (json.JSONDecodeError, ValidationError) as exc:
        raise ValueError(f"not the JSON asked for ({type(exc).__name__})") from exc
    found = {chunk.index: chunk for chunk in answer.chunks if 0 <= chunk.index < count}
    if not found and count:
        raise ValueError("the answer names none of the chunks")
    return found


def _convert(chunk: ChunkInput, parsed: _Chunk | None) -> ChunkExtraction:
    if parsed is None:
        return ChunkExtraction(chunk.chunk_id, warning="the model's answer left this chunk out")
    return ChunkExtraction(
        chunk.chunk_id,
        entities=[
            ExtractedEntity(
                clip(e.name, MAX_NAME),
                clip(e.type.upper(), MAX_TYPE),
                clip(e.description or e.name, MAX_DESCRIPTION),
            )
            for e in parsed.entities
        ],
        relations=[
            ExtractedRelation(
                clip(r.source, MAX_NAME),
                clip(r.target, MAX_NAME),
                relation_type(r.type),
                clip(r.fact, MAX_FACT),
            )
            for r in parsed.relations
        ],
    )


class LlmExtractor:
    name = "llm"

    def __init__(
        self, client: ChatClient, *, batch_size: int = BATCH_SIZE, concurrency: int = CONCURRENCY
    ) -> None:
        self.client = client
        self.batch_size = batch_size
        self._limit = asyncio.Semaphore(concurrency)

    async def extract(self, chunks: Sequence[ChunkInput]) -> ExtractionResult:
        batches = [
            list(chunks[i : i + self.batch_size]) for i in range(0, len(chunks), self.batch_size)
        ]
        done = await asyncio.gather(*(self._batch(batch) for batch in batches))
        result = ExtractionResult([])
        for extractions, usage in done:
            result.chunks += extractions
            result.usage.add(usage)
        return result

    async def _batch(self, batch: list[ChunkInput]) -> tuple[list[ChunkExtraction], TokenUsage]:
        usage = TokenUsage()
        prompt = "\n\n".join(f"Chunk {i}:\n{chunk.text}" for i, chunk in enumerate(batch))
        messages: list[ChatMessage] = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": prompt},
        ]
        problem = ""
        for _attempt in range(2):  # the first answer, and once more when it was malformed
            async with self._limit:
                reply = await self.client.complete(
                    messages, json_mode=True, max_tokens=MAX_TOKENS, temperature=0.0
                )
            usage.add(TokenUsage(reply.usage.prompt_tokens, reply.usage.completion_tokens))
            try:
                parsed = parse_answer(reply.text, len(batch))
            except ValueError as exc:
                problem = str(exc)
                continue
            return [_convert(chunk, parsed.get(i)) for i, chunk in enumerate(batch)], usage
        warning = f"the model's answer was malformed twice: {problem}"
        return [ChunkExtraction(chunk.chunk_id, warning=warning) for chunk in batch], usage
