"""The public contract of answers: the request, the JSON answer, and the streamed events."""

from __future__ import annotations

import uuid
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.config import JsonDict

from app.kit.schemas import NON_BLANK, RequestModel, sent
from app.kit.strings import StoredText
from app.search.schemas import (
    MAX_KNOWLEDGE_BASES,
    MAX_QUERY_CHARS,
    Fusion,
    MmrOptions,
    SearchMode,
    TextMatch,
)

MAX_TURNS = 50
MAX_TURN_CHARS = 20_000


class AnswerMode(StrEnum):
    STANDARD = "standard"
    QUICK = "quick"


class GeneratorChoice(StrEnum):
    AUTO = "auto"
    LLM = "llm"
    EXTRACTIVE = "extractive"


class Intent(StrEnum):
    FACTUAL = "factual"
    RELATIONSHIP = "relationship"
    SUMMARY = "summary"
    EXPLORATION = "exploration"


class ChatTurn(RequestModel):
    role: Literal["system", "user", "assistant"]
    content: StoredText = Field(max_length=MAX_TURN_CHARS)


# A non-blank `query`, or `messages` with a user turn that has text: one of them, not both.
_USER_TURN: JsonDict = {
    "required": ["role", "content"],
    "properties": {"role": {"const": "user"}, "content": NON_BLANK},
}
_ONE_QUESTION: JsonDict = {
    "if": sent("query", {"type": "string"}),
    "then": {"properties": {"query": NON_BLANK, "messages": {"type": "null"}}},
    "else": sent("messages", {"type": "array", "contains": _USER_TURN}),
}


class AnswerOptions(RequestModel):
    """Everything an answer takes besides where to look."""

    # `if`/`then`/`else`: SDK generators read it as no constraint, where a body-level `anyOf`
    # made them drop the operation.
    model_config = ConfigDict(json_schema_extra=_ONE_QUESTION)

    query: StoredText | None = Field(
        default=None, max_length=MAX_QUERY_CHARS, description="The question."
    )
    messages: list[ChatTurn] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_TURNS,
        description="An OpenAI-style chat history instead of `query`: its last user turn is "
        "the question, made standalone from the turns before it when an LLM is configured.",
    )
    mode: AnswerMode = Field(
        default=AnswerMode.STANDARD,
        description="`standard`: analyse the question, then retrieve; `quick`: retrieve with "
        "the question as given.",
    )
    stream: bool = Field(
        default=False, description="Answer as `text/event-stream` events instead of one JSON body."
    )
    generator: GeneratorChoice = Field(
        default=GeneratorChoice.AUTO,
        description="`llm` (422 `llm-not-configured` when none is configured, 503 "
        "`llm-unavailable` when it fails), "
        "`extractive` (sentences of the sources only), `auto`: the LLM when configured, "
        "degrading to extractive with a warning if it fails.",
    )
    top_k: int = Field(default=8, ge=1, le=50, description="Passages retrieved.")
    filter: dict[str, Any] | None = Field(
        default=None, description="Search's filter language (docs/search.md)."
    )
    search_mode: SearchMode = Field(default=SearchMode.HYBRID)
    vector_weight: float = Field(default=0.5, ge=0, le=1)
    fusion: Fusion = Field(default=Fusion.WEIGHTED)
    text_match: TextMatch = Field(default=TextMatch.ANY)
    rerank: bool = False
    mmr: MmrOptions | None = None
    min_similarity: float = Field(
        default=0.35,
        ge=-1,
        le=1,
        description="Relevance floor: a passage is a source when it matched the question's "
        "words (full text) or its cosine similarity to the question reaches this.",
    )
    max_context_tokens: int = Field(
        default=3000,
        ge=100,
        le=100_000,
        description="Budget of the numbered sources given to the generator (estimated tokens).",
    )

    @model_validator(mode="after")
    def _one_question(self) -> AnswerOptions:
        if self.query is not None and self.messages is not None:
            raise ValueError("give `query` or `messages`, not both")
        if self.messages is not None:
            if not any(t.role == "user" and t.content.strip() for t in self.messages):
                raise ValueError("`messages` needs a non-empty user turn")
        elif self.query is None or not self.query.strip():
            raise ValueError("give a non-empty `query` (or `messages`)")
        return self


class AnswerRequest(AnswerOptions):
    """An answer from the knowledge base named in the path."""


class MultiAnswerRequest(AnswerOptions):
    """An answer from several knowledge bases that share one embedding model."""

    knowledge_bases: list[StoredText] = Field(
        min_length=1,
        max_length=MAX_KNOWLEDGE_BASES,
        description="Knowledge base ids or names; all must use the same embedding model.",
    )


class Analysis(BaseModel):
    question: str = Field(description="The standalone question retrieval ran with.")
    entities: list[str]
    intent: Intent
    source: Literal["llm", "lexical", "skipped"] = Field(
        description="`llm`: the model analysed it; `lexical`: words longer than 3 characters "
        "(no LLM, or its output did not parse); `skipped`: quick mode."
    )


class Action(BaseModel):
    """One step of the flow, as it happened."""

    stage: Literal["analysis", "retrieval", "context", "generation"]
    message: str
    data: dict[str, Any] = Field(default_factory=dict)
    elapsed_ms: float


class Source(BaseModel):
    """A numbered passage given to the generator (adjacent chunks of a section merged)."""

    n: int = Field(description="The number its citation marker `[n]` uses.")
    chunk_id: uuid.UUID = Field(description="The first chunk of the passage.")
    chunk_ids: list[uuid.UUID]
    doc_id: uuid.UUID
    knowledge_base_id: uuid.UUID
    doc_title: str
    section_titles: list[str]
    page_start: int | None = None
    page_end: int | None = None
    start_offset: int | None = None
    end_offset: int | None = None
    score: float
    text: str


class Citation(BaseModel):
    n: int
    chunk_id: uuid.UUID
    doc_id: uuid.UUID
    doc_title: str
    section_titles: list[str]
    page_start: int | None = None
    page_end: int | None = None
    start_offset: int | None = None
    end_offset: int | None = None
    quote: str = Field(description="The source's text as given to the generator.")


class AnswerUsage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    context_tokens: int = Field(default=0, description="Estimated tokens of the sources.")
    llm_calls: int = 0


class AnswerResponse(BaseModel):
    answer: str
    citations: list[Citation]
    analysis: Analysis
    actions: list[Action]
    sources: list[Source]
    generator: Literal["llm", "extractive", "none"] = Field(
        description="What wrote the answer; `none` when no source was relevant."
    )
    model: str | None = Field(default=None, description="The LLM's model, when one wrote it.")
    usage: AnswerUsage
    warnings: list[str]
